import { useState } from 'react';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref } from '../links';
import { Field, LiveRegion, Notice, Submit, useSubmit } from '../ui';

/**
 * Sign-in by a mailed code (docs/passwordless.md): the address, then the six digits from the mail. The send's answer
 * is the same for every address; a second factor, when the user has one, is asked next.
 */
export function EmailCode() {
  const { t, client, carry } = usePages();
  const [email, setEmail] = useState<string | null>(null);
  const send = useSubmit(async (f) => {
    const { error } = await call(() => client.emailOtp.sendVerificationOtp({ email: f.email, type: 'sign-in' }));
    if (error) return error.code ?? 'UNKNOWN';
    setEmail(f.email);
    return null;
  });
  const signIn = useSubmit(async (f) => {
    if (!email) return null;
    const { data, error } = await call(() => client.signIn.emailOtp({ email, otp: f.otp.replace(/\s/g, '') }));
    if (error) return error.code ?? 'UNKNOWN';
    // A second factor is asked for (no session yet): its step, which then returns as the sign-in page would.
    if ((data as { twoFactorRedirect?: boolean } | null)?.twoFactorRedirect)
      window.location.assign(pageHref('two-factor', carry));
    else window.location.assign(carry.callbackURL ?? pageHref('sign-in', carry));
    return null;
  });
  return (
    <>
      <h1>{t('emailCodeTitle')}</h1>
      {email ? (
        <>
          <Notice kind="info">{t('emailCodeSent', { email })}</Notice>
          <LiveRegion error={signIn.error} />
          <form onSubmit={signIn.onSubmit}>
            <Field label={t('emailCodeField')} name="otp" autoComplete="one-time-code" maxLength={12} autoFocus />
            <Submit busy={signIn.busy}>{t('signInButton')}</Submit>
          </form>
          <p className="aside">
            <a href={pageHref('email-code', carry)}>{t('emailCodeOffer')}</a>
          </p>
        </>
      ) : (
        <>
          <p>{t('emailCodeIntro')}</p>
          <LiveRegion error={send.error} />
          <form onSubmit={send.onSubmit}>
            <Field label={t('email')} name="email" type="email" autoComplete="email" autoFocus />
            <Submit busy={send.busy}>{t('emailCodeOffer')}</Submit>
          </form>
        </>
      )}
      <p className="aside">
        <a href={pageHref('sign-in', carry)}>{t('backToSignIn')}</a>
      </p>
    </>
  );
}
