import { useEffect, useRef, useState } from 'react';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref, pageTarget } from '../links';
import { forgetToken } from '../tokens';
import { LiveRegion, Notice, useSubmit } from '../ui';

/**
 * Where the mailed deletion link leads when the request named no callback (the API's /delete-user/callback sends
 * the browser here with `?token=`, deleting nothing). It says what will be deleted and deletes only when asked: POST
 * /delete-user with the token, which works with the session of the user the link was mailed to (docs/SPEC.md §4,
 * account deletion). The token stays in this tab until used or refused (tokens.ts), so signing in first keeps it.
 */
export function DeleteAccount({ token }: { token: string | null }) {
  const { t, config, client, carry, user, apiBase } = usePages();
  const [spent, setSpent] = useState(false);
  const [kept, setKept] = useState(false);
  const keptHeading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (kept) {
      keptHeading.current?.focus();
      document.title = `${t('keptTitle')} · ${config.productName}`;
    }
  }, [kept, t, config.productName]);
  const { busy, error, onSubmit } = useSubmit(async () => {
    const { error } = await call(() => client.deleteUser({ token: token ?? '' }));
    if (error?.code === 'INVALID_TOKEN') {
      forgetToken('delete-account');
      setSpent(true);
    }
    if (error) return error.code ?? 'UNKNOWN';
    forgetToken('delete-account');
    window.location.replace(pageHref('account-deleted', carry));
    return null;
  });

  if (!token || spent)
    return (
      <>
        <h1>{t('linkExpiredTitle')}</h1>
        <Notice kind="error">{t('e_INVALID_TOKEN')}</Notice>
        <p>
          <a className="button primary" href={pageHref('sign-in', carry)}>
            {t('signInTitle')}
          </a>
        </p>
      </>
    );
  if (!user) {
    // The link works with the session of its user only: sign in, then come back here (the token is kept).
    const back = pageTarget('delete-account', carry, { baseURI: document.baseURI, apiBase });
    return (
      <>
        <h1>{t('deleteTitle')}</h1>
        <Notice kind="info">{t('deleteSignIn')}</Notice>
        <p>
          <a className="button primary" href={pageHref('sign-in', { ...carry, callbackURL: back })}>
            {t('signInTitle')}
          </a>
        </p>
      </>
    );
  }
  // Keeping it: back to the product's page that sent the request, if it named one; otherwise this page says nothing
  // was deleted and offers the way back to the product (HOSTED_PAGES_HOME_URL) and to the account's security page.
  const keep = (event: React.MouseEvent<HTMLAnchorElement>) => {
    forgetToken('delete-account');
    if (carry.callbackURL) return;
    event.preventDefault();
    setKept(true);
  };
  if (kept) {
    const home = config.links?.home;
    return (
      <>
        <h1 ref={keptHeading} tabIndex={-1}>
          {t('keptTitle')}
        </h1>
        <Notice kind="info">{t('keptText', { product: config.productName })}</Notice>
        {home && (
          <p>
            <a className="button primary" href={home}>
              {t('backToProduct', { product: config.productName })}
            </a>
          </p>
        )}
        <p>
          <a className={`button ${home ? 'secondary' : 'primary'}`} href={pageHref('security', carry)}>
            {t('securityTitle')}
          </a>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>{t('deleteTitle')}</h1>
      <p>{t('deleteText', { product: config.productName, email: user.email })}</p>
      <LiveRegion error={error} />
      <form onSubmit={onSubmit}>
        <button type="submit" className="danger" disabled={busy} aria-busy={busy}>
          {busy ? t('busy') : t('deleteButton')}
        </button>
        <a className="button secondary" href={carry.callbackURL ?? pageHref('sign-in', carry)} onClick={keep}>
          {t('deleteKeep')}
        </a>
      </form>
    </>
  );
}
