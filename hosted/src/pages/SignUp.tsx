import { useState } from 'react';
import { useCaptcha } from '../captcha';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref, pageTarget } from '../links';
import { Field, LiveRegion, Notice, Submit, useSubmit } from '../ui';

/** Create an account (when sign-up is enabled), the configured password rules shown under the field. */
export function SignUp() {
  const { t, config, client, carry, language, apiBase } = usePages();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const captcha = useCaptcha('/sign-up/email');
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    const missing = captcha.missing();
    if (missing) return missing;
    const { data, error } = await call(() =>
      client.signUp.email({
        name: f.name,
        email: f.email,
        password: f.password,
        // The user's language is the page's: their mails come in it from now on.
        language,
        // The verification mail's link leads to the email-verified page, which then offers the way back.
        callbackURL: pageTarget('email-verified', carry, { baseURI: document.baseURI, apiBase }),
        fetchOptions: captcha.fetchOptions(),
      } as Parameters<typeof client.signUp.email>[0]),
    );
    if (error) {
      captcha.reset();
      return error.code ?? 'UNKNOWN';
    }
    const signedIn = Boolean((data as { token?: string | null } | null)?.token);
    // Signed in: back to the product (a verification mail, if sent, can be followed later); else say where the
    // link went. Signed in with nowhere to go and no mail: the sign-in page, which shows who is signed in.
    if (signedIn && carry.callbackURL) window.location.assign(carry.callbackURL);
    else if (!signedIn || config.verifyOnSignUp) setSentTo(f.email);
    else window.location.assign(pageHref('sign-in', carry));
    return null;
  });

  if (!config.methods.emailPassword || !config.methods.signUp)
    return (
      <>
        <h1>{t('signUpTitle')}</h1>
        <Notice kind="error">{t('e_SIGN_UP_DISABLED')}</Notice>
        <p>
          <a href={pageHref('sign-in', carry)}>{t('backToSignIn')}</a>
        </p>
      </>
    );
  if (sentTo)
    return (
      <>
        <h1>{t('checkMailTitle')}</h1>
        <Notice kind="info">{t('verifySent', { email: sentTo })}</Notice>
        <p>
          <a href={pageHref('sign-in', carry)}>{t('backToSignIn')}</a>
        </p>
      </>
    );
  const { minLength, maxLength } = config.password;
  return (
    <>
      <h1>{t('signUpTitle')}</h1>
      <LiveRegion error={error} />
      <form onSubmit={onSubmit}>
        <Field label={t('name')} name="name" autoComplete="name" autoFocus />
        <Field label={t('email')} name="email" type="email" autoComplete="email" />
        <Field
          label={t('password')}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          maxLength={maxLength}
          hint={t('passwordRules', { min: minLength, max: maxLength })}
        />
        {captcha.widget}
        <Submit busy={busy}>{t('signUpButton')}</Submit>
      </form>
      <p className="aside">
        {t('haveAccount')} <a href={pageHref('sign-in', carry)}>{t('signInTitle')}</a>
      </p>
    </>
  );
}
