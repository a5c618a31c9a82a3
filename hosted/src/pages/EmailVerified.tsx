import { useState } from 'react';
import { useCaptcha } from '../captcha';
import { call } from '../client';
import { usePages } from '../context';
import { redirectErrorKey } from '../i18n';
import { pageHref, pageTarget } from '../links';
import { Field, LiveRegion, Notice, Submit, useSubmit } from '../ui';

/**
 * Where the verification link lands (the API's /verify-email redirects here): verified, or `?error=` one of
 * token_expired, invalid_token, user_not_found, unauthorized (docs/SPEC.md §8) with a way to get a new link.
 */
export function EmailVerified({ linkError }: { linkError: string | null }) {
  const { t, client, carry, apiBase } = usePages();
  const [sent, setSent] = useState(false);
  // Off by default: only when the service's bot check lists /send-verification-email too.
  const captcha = useCaptcha('/send-verification-email');
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    const missing = captcha.missing();
    if (missing) return missing;
    const { error } = await call(() =>
      client.sendVerificationEmail({
        email: f.email,
        callbackURL: pageTarget('email-verified', carry, { baseURI: document.baseURI, apiBase }),
        fetchOptions: captcha.fetchOptions(),
      }),
    );
    if (error) {
      captcha.reset();
      return error.code ?? 'UNKNOWN';
    }
    setSent(true);
    return null;
  });
  const onward = carry.callbackURL ?? pageHref('sign-in', carry);
  if (!linkError)
    return (
      <>
        <h1>{t('verifiedTitle')}</h1>
        <Notice kind="info">{t('verifiedText')}</Notice>
        <p>
          <a className="button primary" href={onward}>
            {t('continue')}
          </a>
        </p>
      </>
    );
  return (
    <>
      <h1>{t('linkExpiredTitle')}</h1>
      <Notice kind="error">{t(redirectErrorKey(linkError))}</Notice>
      {sent ? (
        <Notice kind="info">{t('resendDone')}</Notice>
      ) : (
        <>
          <p>{t('resendIntro')}</p>
          <LiveRegion error={error} />
          <form onSubmit={onSubmit}>
            <Field label={t('email')} name="email" type="email" autoComplete="email" />
            {captcha.widget}
            <Submit busy={busy}>{t('sendLink')}</Submit>
          </form>
        </>
      )}
      <p className="aside">
        <a href={pageHref('sign-in', carry)}>{t('backToSignIn')}</a>
      </p>
    </>
  );
}
