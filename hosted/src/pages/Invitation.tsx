import { useEffect, useRef, useState } from 'react';
import { useCaptcha } from '../captcha';
import { call } from '../client';
import { usePages } from '../context';
import { apiErrorKey, redirectErrorKey } from '../i18n';
import { type Carry, pageHref, withoutParams } from '../links';
import { LiveRegion, Notice } from '../ui';

interface InvitationView {
  organizationName: string;
  inviterEmail: string;
  role: string;
}

/**
 * The invitation mail's page (`invitation/<id>`): who invites, to which organization, as what; accept or decline
 * (docs/SPEC.md §4, invitation status). Signed out, it sends the browser to sign in or sign up and back here. An
 * address not verified yet (the service's default asks for one before an answer) is offered the verification link,
 * whose callback is this page, so following it comes back here; `linkError` is that link's refusal (`?error=`).
 */
export function Invitation({ id, linkError }: { id: string; linkError: string | null }) {
  const { t, client, carry, user, apiBase } = usePages();
  // This page, as where to come back to after signing in (a path on the API's origin, else the full URL).
  const here = new URL(withoutParams(window.location.href, ['error']));
  const self =
    here.origin === new URL(apiBase).origin ? `${here.pathname}${here.search}` : `${here.origin}${here.pathname}`;
  const back: Carry = { ...carry, callbackURL: self };
  const [invitation, setInvitation] = useState<InvitationView | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [answered, setAnswered] = useState<'accepted' | 'declined' | null>(null);
  const [busy, setBusy] = useState(false);
  // The address must be verified first: 'ask' offers the link, 'sent' says where it went.
  const [verify, setVerify] = useState<'ask' | 'sent' | null>(null);
  const sendLink = useRef<HTMLButtonElement>(null);
  const sentNotice = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    if (!user) return;
    void call(() => client.$fetch('/organization/get-invitation', { method: 'GET', query: { id } })).then((r) => {
      if (r.error?.code === 'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION') setVerify('ask');
      else if (r.error) setError(t(apiErrorKey(r.error.code)));
      else setInvitation(r.data as InvitationView);
    });
  }, [client, id, user, t]);

  const answer = async (accept: boolean) => {
    setBusy(true);
    const body = { invitationId: id };
    const r = await call(() =>
      accept
        ? client.$fetch('/organization/accept-invitation', { method: 'POST', body })
        : client.$fetch('/organization/reject-invitation', { method: 'POST', body }),
    );
    setBusy(false);
    if (r.error?.code === 'EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION') setVerify('ask');
    else if (r.error) setError(t(apiErrorKey(r.error.code)));
    else setAnswered(accept ? 'accepted' : 'declined');
  };

  // The verification link comes back to this page (its callback), signed in as now, to answer the invitation.
  // Off by default: only when the service's bot check lists /send-verification-email too (as the email-verified page).
  const captcha = useCaptcha('/send-verification-email');
  const mailLink = async () => {
    if (!user) return;
    const missing = captcha.missing();
    if (missing) return setError(t(apiErrorKey(missing)));
    setBusy(true);
    setError(null);
    const r = await call(() =>
      client.sendVerificationEmail({ email: user.email, callbackURL: self, fetchOptions: captcha.fetchOptions() }),
    );
    setBusy(false);
    if (r.error) {
      captcha.reset();
      setError(t(apiErrorKey(r.error.code)));
    } else setVerify('sent');
  };
  // The focus follows: to the heading that says where the link went, or back to the button after a refusal.
  useEffect(() => {
    if (verify === 'sent') sentNotice.current?.focus();
    else if (verify === 'ask' && error && !busy) sendLink.current?.focus();
  }, [verify, error, busy]);

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
  if (verify === 'sent')
    return (
      <>
        <h1 ref={sentNotice} tabIndex={-1}>
          {t('checkMailTitle')}
        </h1>
        <Notice kind="info">{t('invitationLinkSent', { email: user.email })}</Notice>
        <p className="aside">
          {t('signedInAs', { email: user.email })} <a href={pageHref('sign-out', back)}>{t('notYou')}</a>
        </p>
      </>
    );
  if (verify === 'ask')
    return (
      <>
        <h1>{t('invitationTitle')}</h1>
        {linkError && <Notice kind="error">{t(redirectErrorKey(linkError))}</Notice>}
        <p>{t('invitationVerifyIntro', { email: user.email })}</p>
        <LiveRegion error={error} />
        {captcha.widget}
        <p>
          <button ref={sendLink} type="button" className="primary" disabled={busy} aria-busy={busy} onClick={mailLink}>
            {busy ? t('busy') : t('invitationSendLink')}
          </button>
        </p>
        <p className="aside">
          {t('signedInAs', { email: user.email })} <a href={pageHref('sign-out', back)}>{t('notYou')}</a>
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
            <button type="button" className="primary" disabled={busy} onClick={() => answer(true)}>
              {t('accept')}
            </button>
            <button type="button" className="secondary" disabled={busy} onClick={() => answer(false)}>
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
