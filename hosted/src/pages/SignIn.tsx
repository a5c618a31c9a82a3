import { useCaptcha } from '../captcha';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref, pageTarget } from '../links';
import { Field, LiveRegion, Submit, useSubmit } from '../ui';

/** Sign in with email and password (remember me), or with a configured social provider. */
export function SignIn() {
  const pages = usePages();
  const { t, config, client, carry, user, apiBase } = pages;
  const where = { baseURI: document.baseURI, apiBase };
  const captcha = useCaptcha('/sign-in/email');
  const { busy, error, onSubmit } = useSubmit(async (f) => {
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
  return (
    <>
      <h1>{t('signInTo', { product: config.productName })}</h1>
      <LiveRegion error={error ?? social.error} />
      {methods.emailPassword && (
        <form onSubmit={onSubmit} noValidate={false}>
          <Field label={t('email')} name="email" type="email" autoComplete="username" autoFocus />
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
      {methods.social.length > 0 && (
        <>
          {methods.emailPassword && <p className="or">{t('or')}</p>}
          <div className="social">
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
