import { usePages } from '../context';
import { redirectErrorKey, redirectErrorTitle } from '../i18n';
import { pageHref } from '../links';
import { Notice } from '../ui';

/**
 * The error page: a heading that says what happened, the code in words (docs/SPEC.md §8), the code itself, and a way
 * back (help is in the footer).
 */
export function ErrorPage({ code }: { code: string }) {
  const { t, carry } = usePages();
  // A refused callback is never offered as the way back, nor carried on.
  const back = code === 'INVALID_CALLBACK_URL' ? { ...carry, callbackURL: null, newUserCallbackURL: null } : carry;
  return (
    <>
      <h1>{t(redirectErrorTitle(code))}</h1>
      <Notice kind="error">{t(redirectErrorKey(code))}</Notice>
      <p className="hint">
        {t('errorCode', { code: '' })}
        <code id="error-code">{code}</code>
      </p>
      <p>
        <a className="button primary" href={pageHref('sign-in', back)}>
          {t('backToSignIn')}
        </a>
      </p>
    </>
  );
}
