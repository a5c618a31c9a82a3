import { useState } from 'react';
import { useCaptcha } from '../captcha';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref, pageTarget } from '../links';
import { Field, LiveRegion, Notice, Submit, useSubmit } from '../ui';

/**
 * Ask for a reset link. The answer is the API's, the same for every address (no enumeration); the mailed link
 * leads to the reset page, which keeps the way back to the product.
 */
export function ForgotPassword() {
  const { t, client, carry, apiBase } = usePages();
  const [sent, setSent] = useState(false);
  const captcha = useCaptcha('/request-password-reset');
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    const missing = captcha.missing();
    if (missing) return missing;
    const { error } = await call(() =>
      client.requestPasswordReset({
        email: f.email,
        redirectTo: pageTarget('reset-password', carry, { baseURI: document.baseURI, apiBase }),
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
  return (
    <>
      <h1>{t('forgotTitle')}</h1>
      {sent ? (
        <Notice kind="info">{t('resetRequested')}</Notice>
      ) : (
        <>
          <p>{t('forgotIntro')}</p>
          <LiveRegion error={error} />
          <form onSubmit={onSubmit}>
            <Field label={t('email')} name="email" type="email" autoComplete="email" autoFocus />
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
