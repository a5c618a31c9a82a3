import { usePages } from '../context';
import { pageHref } from '../links';
import { Notice } from '../ui';

/** Where the mailed deletion link lands once the API has deleted the account (docs/SPEC.md §4, account deletion). */
export function AccountDeleted() {
  const { t, config, carry } = usePages();
  return (
    <>
      <h1>{t('deletedTitle')}</h1>
      <Notice kind="info">{t('deletedText', { product: config.productName })}</Notice>
      <p>
        <a className="button primary" href={carry.callbackURL ?? pageHref('sign-in', carry)}>
          {t('continue')}
        </a>
      </p>
    </>
  );
}
