import { useEffect, useState } from 'react';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref } from '../links';
import { Notice } from '../ui';

/** `sign-out`: ends the session, then goes back to the product's callback, or shows the signed-out page. */
export function SignOut() {
  const { t, client, carry } = usePages();
  const [done, setDone] = useState(false);
  useEffect(() => {
    let live = true;
    void call(() => client.signOut()).then(() => {
      if (!live) return;
      if (carry.callbackURL) window.location.replace(carry.callbackURL);
      else {
        window.history.replaceState(null, '', pageHref('signed-out', carry));
        setDone(true);
      }
    });
    return () => {
      live = false;
    };
  }, [client, carry]);
  return done ? <SignedOut /> : <p role="status">{t('loading')}</p>;
}

export function SignedOut() {
  const { t, config, carry } = usePages();
  return (
    <>
      <h1>{t('signedOutTitle')}</h1>
      <Notice kind="info">{t('signedOutText', { product: config.productName })}</Notice>
      <p>
        <a className="button primary" href={pageHref('sign-in', carry)}>
          {t('signInAgain')}
        </a>
      </p>
    </>
  );
}
