import { useEffect, useState } from 'react';
import { call } from '../client';
import { usePages } from '../context';
import { apiErrorKey } from '../i18n';
import { type Carry, pageHref } from '../links';
import { LiveRegion, Notice } from '../ui';

interface InvitationView {
  organizationName: string;
  inviterEmail: string;
  role: string;
}

/**
 * The invitation mail's page (`invitation/<id>`): who invites, to which organization, as what; accept or decline
 * (docs/SPEC.md §4, invitation status). Signed out, it sends the browser to sign in or sign up and back here.
 */
export function Invitation({ id }: { id: string }) {
  const { t, client, carry, user, apiBase } = usePages();
  // This page, as where to come back to after signing in (a path on the API's origin, else the full URL).
  const here = new URL(window.location.href);
  const self =
    here.origin === new URL(apiBase).origin ? `${here.pathname}${here.search}` : `${here.origin}${here.pathname}`;
  const back: Carry = { ...carry, callbackURL: self };
  const [invitation, setInvitation] = useState<InvitationView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [answered, setAnswered] = useState<'accepted' | 'declined' | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!user) return;
    void call(() => client.$fetch('/organization/get-invitation', { method: 'GET', query: { id } })).then((r) => {
      if (r.error) setError(t(apiErrorKey(r.error.code)));
      else setInvitation(r.data as InvitationView);
    });
  }, [client, id, user, t]);

  const answer = async (path: 'accept-invitation' | 'reject-invitation') => {
    setBusy(true);
    const r = await call(() => client.$fetch(`/organization/${path}`, { method: 'POST', body: { invitationId: id } }));
    setBusy(false);
    if (r.error) setError(t(apiErrorKey(r.error.code)));
    else setAnswered(path === 'accept-invitation' ? 'accepted' : 'declined');
  };

  if (!user)
    return (
      <>
        <h1>{t('invitationTitle')}</h1>
        <p>{t('invitationSignIn')}</p>
        <p>
          <a className="button primary" href={pageHref('sign-in', back)}>
            {t('signInTitle')}
          </a>
        </p>
        <p>
          <a className="button secondary" href={pageHref('sign-up', back)}>
            {t('createAccount')}
          </a>
        </p>
      </>
    );
  const organization = invitation?.organizationName ?? '';
  if (answered)
    return (
      <>
        <h1>{t('invitationTitle')}</h1>
        <Notice kind="info">
          {t(answered === 'accepted' ? 'invitationAccepted' : 'invitationDeclined', { organization })}
        </Notice>
        <p>
          <a className="button primary" href={carry.callbackURL ?? pageHref('sign-in', carry)}>
            {t('continue')}
          </a>
        </p>
      </>
    );
  return (
    <>
      <h1>{t('invitationTitle')}</h1>
      <LiveRegion error={error} />
      {invitation ? (
        <>
          <p>{t('invitationText', { inviter: invitation.inviterEmail, organization, role: invitation.role })}</p>
          <div className="social">
            <button type="button" className="primary" disabled={busy} onClick={() => answer('accept-invitation')}>
              {t('accept')}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => answer('reject-invitation')}>
              {t('decline')}
            </button>
          </div>
        </>
      ) : (
        !error && <p role="status">{t('loading')}</p>
      )}
      <p className="aside">
        {t('signedInAs', { email: user.email })} <a href={pageHref('sign-out', back)}>{t('notYou')}</a>
      </p>
    </>
  );
}
