import { useState } from 'react';
import { call } from '../client';
import { usePages } from '../context';
import { pageHref } from '../links';
import { forgetToken } from '../tokens';
import { Field, LiveRegion, Notice, Submit, useSubmit } from '../ui';

/**
 * Sign-in by a mailed link (docs/passwordless.md). Without a token: ask for a link (the answer is the same for
 * every address), carrying where to go after and where a user the link registers goes. With the mailed link's
 * token: one button signs in, so a mail scanner that only fetches the page uses nothing up; a second factor, when
 * the user has one, is asked next; a user the link registered goes to `newUserCallbackURL` when there is one.
 */
export function MagicLink({ token }: { token: string | null }) {
  return token ? <UseLink token={token} /> : <AskForLink />;
}

function AskForLink() {
  const { t, client, carry } = usePages();
  const [sent, setSent] = useState<string | null>(null);
  const { busy, error, onSubmit } = useSubmit(async (f) => {
    const { callbackURL, newUserCallbackURL } = carry;
    const { error } = await call(() =>
      client.signIn.magicLink({
        email: f.email,
        ...(callbackURL ? { callbackURL } : {}),
        ...(newUserCallbackURL ? { newUserCallbackURL } : {}),
      }),
    );
    if (error) return error.code ?? 'UNKNOWN';
    setSent(f.email);
    return null;
  });
  return (
    <>
      <h1>{t('magicLinkTitle')}</h1>
      {sent ? (
        <Notice kind="info">{t('magicLinkSent', { email: sent })}</Notice>
      ) : (
        <>
          <p>{t('magicLinkIntro')}</p>
          <LiveRegion error={error} />
          <form onSubmit={onSubmit}>
            <Field label={t('email')} name="email" type="email" autoComplete="email" autoFocus />
            <Submit busy={busy}>{t('magicLinkOffer')}</Submit>
          </form>
        </>
      )}
      <p className="aside">
        <a href={pageHref('sign-in', carry)}>{t('backToSignIn')}</a>
      </p>
    </>
  );
}

function UseLink({ token }: { token: string }) {
  const { t, client, carry } = usePages();
  const { busy, error, onSubmit } = useSubmit(async () => {
    const { data, error } = await call(() => client.magicLink.verify({ query: { token } }));
    // Used, or refused for good; a link from another browser stays usable there, not here.
    if (error?.code !== 'NETWORK') forgetToken('magic-link');
    if (error) return error.code ?? 'UNKNOWN';
    const answer = data as { twoFactorRedirect?: boolean; newUser?: boolean } | null;
    // A second factor is asked for (no session yet): its step, which then returns as the sign-in page would.
    if (answer?.twoFactorRedirect) window.location.assign(pageHref('two-factor', carry));
    // The link registered its user: where the product sends new users (the service checked it, as every callback).
    else if (answer?.newUser && carry.newUserCallbackURL) window.location.assign(carry.newUserCallbackURL);
    else window.location.assign(carry.callbackURL ?? pageHref('sign-in', carry));
    return null;
  });
  return (
    <>
      <h1>{t('magicLinkConfirmTitle')}</h1>
      <p>{t('magicLinkConfirmText')}</p>
      <LiveRegion error={error} />
      <form onSubmit={onSubmit}>
        <Submit busy={busy}>{t('magicLinkConfirm')}</Submit>
      </form>
      {error && (
        <p className="aside">
          <a href={pageHref('magic-link', carry)}>{t('magicLinkOffer')}</a>
        </p>
      )}
    </>
  );
}
