import { useCallback, useEffect, useRef, useState } from 'react';
import { useCaptcha } from '../captcha';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref, pageTarget } from '../links';
import { autofillSupported, ceremonyCancelled, passkeyErrorKey, webAuthnSupported } from '../passkeys';
import { Field, LiveRegion, Submit, useSubmit } from '../ui';

/** Sign in with email and password (remember me), a passkey, a mailed link or code, or a configured social
 * provider. */
export function SignIn() {
  const pages = usePages();
  const { t, config, client, carry, user, apiBase } = pages;
  const where = { baseURI: document.baseURI, apiBase };
  const captcha = useCaptcha('/sign-in/email');
  const passkey = usePasskeySignIn(
    !user && config.methods.passkey === true && webAuthnSupported(),
    config.methods.emailPassword,
  );
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    passkey.clearError();
    const missing = captcha.missing();
    if (missing) return missing;
    const { data, error } = await call(() =>
      client.signIn.email({
        email: f.email,
        password: f.password,
        rememberMe: f.rememberMe === 'on',
        // Without a callback of the product's, the browser comes back here, signed in.
        callbackURL: carry.callbackURL ?? pageTarget('sign-in', carry, where),
        fetchOptions: captcha.fetchOptions(),
      }),
    );
    if (error) captcha.reset();
    // A second factor is asked for (no session yet): its step, which then returns as this page would.
    if ((data as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect)
      window.location.assign(pageHref('two-factor', carry));
    // Otherwise on success the client follows the answer's url (its redirect plugin): nothing more to do here.
    return error ? (error.code ?? 'UNKNOWN') : null;
  });
  const social = useSubmit(async (f) => {
    const { error } = await call(() =>
      client.signIn.social({
        provider: f.provider,
        // The provider's return comes to this page (carrying the product's callback), never straight to the
        // product: signed in, it goes on at once; asked for a second factor (`twoFactorRedirect=true`), main.tsx
        // opens that step, so the product never gets a browser that is only half signed in.
        callbackURL: pageTarget('sign-in', carry, where),
        errorCallbackURL: pageTarget('error', carry, where),
      }),
    );
    return error ? (error.code ?? 'UNKNOWN') : null;
  });

  if (user) return <SignedIn email={user.email} />;
  const { methods } = config;
  const others =
    passkey.enabled || methods.magicLink === true || methods.emailOtp === true || methods.social.length > 0;
  return (
    <>
      <h1>{t('signInTo', { product: config.productName })}</h1>
      <LiveRegion error={passkey.error ?? error ?? social.error} />
      {methods.emailPassword && (
        <form onSubmit={onSubmit} noValidate={false}>
          <Field
            label={t('email')}
            name="email"
            type="email"
            // The browser's autofill may offer this site's passkeys here too (conditional UI).
            autoComplete={passkey.enabled ? 'username webauthn' : 'username'}
            autoFocus
          />
          <Field label={t('password')} name="password" type="password" autoComplete="current-password" />
          <div className="check">
            <input id="remember-me" name="rememberMe" type="checkbox" defaultChecked />
            <label htmlFor="remember-me">{t('rememberMe')}</label>
          </div>
          {captcha.widget}
          <Submit busy={busy}>{t('signInButton')}</Submit>
          <p className="aside">
            <a href={pageHref('forgot-password', carry)}>{t('forgotPassword')}</a>
          </p>
        </form>
      )}
      {others && (
        <>
          {methods.emailPassword && <p className="or">{t('or')}</p>}
          <div className="social">
            {passkey.enabled && (
              <button
                type="button"
                className="secondary"
                onClick={passkey.start}
                // Not `disabled`: the focus stays on it through the ceremony (a second press does nothing).
                aria-disabled={passkey.busy}
                aria-busy={passkey.busy}
              >
                {passkey.busy ? t('busy') : t('passkeySignIn')}
              </button>
            )}
            {methods.magicLink && (
              <a className="button secondary" href={pageHref('magic-link', carry)}>
                {t('magicLinkOffer')}
              </a>
            )}
            {methods.emailOtp && (
              <a className="button secondary" href={pageHref('email-code', carry)}>
                {t('emailCodeOffer')}
              </a>
            )}
            {methods.social.map((provider) => (
              <form key={provider.id} onSubmit={social.onSubmit}>
                <input type="hidden" name="provider" value={provider.id} />
                <button type="submit" className="secondary" disabled={social.busy}>
                  {t('signInWith', { provider: provider.name })}
                </button>
              </form>
            ))}
          </div>
        </>
      )}
      {methods.emailPassword && methods.signUp && (
        <p className="aside">
          {t('noAccount')} <a href={pageHref('sign-up', carry)}>{t('createAccount')}</a>
        </p>
      )}
    </>
  );
}

/**
 * Passkey sign-in (docs/two-factor.md, Passkeys) through the published client's `signIn.passkey()`: the button, and
 * the email field's autofill (conditional UI) armed when the page opens where the browser offers it. A signed-in
 * browser goes back to the product's callback, or to this page, which says who is signed in; a passkey is two
 * factors in one, so no code is ever asked after it. A ceremony the user dismissed (or that the button's replaced)
 * says nothing; a refusal of the API is its catalogue sentence.
 */
function usePasskeySignIn(enabled: boolean, withEmailField: boolean) {
  const { t, client, carry } = usePages();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const running = useRef(false);

  const signedIn = useCallback(() => window.location.assign(carry.callbackURL ?? pageHref('sign-in', carry)), [carry]);

  /**
   * One ceremony; `autoFill` waits for a passkey picked among the email field's suggestions. Answers whether it
   * signed in.
   */
  const ceremony = useCallback(
    async (autoFill: boolean): Promise<boolean> => {
      let verifying = false;
      const outcome = await call(() =>
        client.signIn.passkey({
          autoFill,
          // Called only once the device has answered: what comes back after it is the API's verdict.
          fetchOptions: {
            onRequest: () => {
              verifying = true;
            },
          },
        }),
      );
      if (!outcome.error) {
        signedIn();
        return true;
      }
      const code = outcome.error.code;
      // The autofill's request says nothing until the user picks a passkey (its options failing, or the button's
      // ceremony replacing it, are nothing to tell); the button's tells every refusal but a dismissed ceremony.
      if (verifying || (!autoFill && !ceremonyCancelled(code))) setError(t(passkeyErrorKey(code)));
      return false;
    },
    [client, signedIn, t],
  );

  /**
   * The autofill's request, pending until the user picks a passkey from the email field's suggestions. It is not
   * armed again by itself after it ends: a refusal stays on the page until the user acts.
   */
  const arm = useCallback(async () => {
    if (!enabled || !withEmailField || running.current || !(await autofillSupported())) return;
    await ceremony(true);
  }, [enabled, withEmailField, ceremony]);

  useEffect(() => {
    void arm();
  }, [arm]);

  const start = async () => {
    if (running.current) return;
    running.current = true;
    setBusy(true);
    setError(null);
    // Starting this ceremony ends the autofill's (the browser runs one at a time).
    const done = await ceremony(false);
    running.current = false;
    if (done) return;
    setBusy(false);
    // Not signed in: the autofill offers passkeys again.
    void arm();
  };

  return { enabled, busy, error, start, clearError: () => setError(null) };
}

/** Already signed in and no product to go back to: say so, and offer to sign out. */
function SignedIn({ email }: { email: string }) {
  const { t, carry } = usePages();
  return (
    <>
      <h1>{t('signedInTitle')}</h1>
      <p>{t('signedInAs', { email })}</p>
      <p>
        <a className="button secondary" href={pageHref('sign-out', carry)}>
          {t('signOut')}
        </a>
      </p>
      <p className="aside">
        <a href={pageHref('security', carry)}>{t('securityTitle')}</a>
      </p>
    </>
  );
}
