import { usePages } from '../context';
import { redirectErrorKey } from '../i18n';
import { pageHref } from '../links';
import { Notice } from '../ui';

/**
 * Where the change-of-email confirmation (mailed to the old address) lands: the account moved and the new address
 * got its verification link, or `?error=` (unauthorized: followed without that user's session; token_expired,
 * invalid_token) explained, with the way to sign in and follow it again.
 */
export function EmailChanged({ linkError }: { linkError: string | null }) {
  const { t, carry } = usePages();
  const onward = carry.callbackURL ?? pageHref('sign-in', carry);
  return (
    <>
      <h1>{linkError ? t('linkExpiredTitle') : t('emailChangedTitle')}</h1>
      <Notice kind={linkError ? 'error' : 'info'}>
        {linkError ? t(redirectErrorKey(linkError)) : t('emailChangedText')}
      </Notice>
      <p>
        <a className="button primary" href={linkError ? pageHref('sign-in', carry) : onward}>
          {linkError ? t('signInTitle') : t('continue')}
        </a>
      </p>
    </>
  );
}
