import { useEffect, useRef, useState } from 'react';
import { useCaptcha } from '../captcha';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref } from '../links';
import { forgetToken } from '../tokens';
import { Field, LiveRegion, Notice, Submit, useSubmit } from '../ui';

/**
 * Choose a new password, reached from the mailed link (the API's /reset-password/<token> redirects here with
 * `?token=`, or `?error=INVALID_TOKEN`). The token is taken out of the address at once and kept in this tab until
 * it is used or refused, so a reload keeps the form (main.tsx, tokens.ts).
 */
export function ResetPassword({ token, linkError }: { token: string | null; linkError: string | null }) {
  const { t, config, client, carry } = usePages();
  const [done, setDone] = useState(false);
  const [spent, setSpent] = useState(false);
  // Off by default: only when the service's bot check lists /reset-password too.
  const captcha = useCaptcha('/reset-password');
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    const missing = captcha.missing();
    if (missing) return missing;
    const { error } = await call(() =>
      client.resetPassword({ newPassword: f.password, token: token ?? '', fetchOptions: captcha.fetchOptions() }),
    );
    if (error) captcha.reset();
    if (error?.code === 'INVALID_TOKEN') {
      forgetToken('reset-password');
      setSpent(true);
    }
    if (error) return error.code ?? 'UNKNOWN';
    forgetToken('reset-password');
    setDone(true);
    document.title = `${t('resetDoneTitle')} · ${config.productName}`;
    return null;
  });
  // The form is gone: the focus goes to the heading that says what happened, so it is read out.
  const doneHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (done) doneHeading.current?.focus();
  }, [done]);
  if (done)
    return (
      <>
        <h1 ref={doneHeading} tabIndex={-1}>
          {t('resetDoneTitle')}
        </h1>
        <Notice kind="info">{t('resetDone')}</Notice>
        <p>
          <a className="button primary" href={pageHref('sign-in', carry)}>
            {t('signInTitle')}
          </a>
        </p>
      </>
    );
  if (!token || linkError || spent)
    return (
      <>
        <h1>{t('linkExpiredTitle')}</h1>
        <Notice kind="error">{t('e_INVALID_TOKEN')}</Notice>
        <p>
          <a className="button primary" href={pageHref('forgot-password', carry)}>
            {t('askNewLink')}
          </a>
        </p>
      </>
    );
  const { minLength, maxLength } = config.password;
  return (
    <>
      <h1>{t('resetTitle')}</h1>
      <LiveRegion error={error} />
      <form onSubmit={onSubmit}>
        <Field
          label={t('newPassword')}
          name="password"
          type="password"
          autoComplete="new-password"
          minLength={minLength}
          maxLength={maxLength}
          hint={t('passwordRules', { min: minLength, max: maxLength })}
          autoFocus
        />
        {captcha.widget}
        <Submit busy={busy}>{t('resetButton')}</Submit>
      </form>
    </>
  );
}
