import type { Config } from '../../config';
import { mailLanguage } from '../../mail/language';
import type { MailOutbox } from '../../mail/mail-outbox';
import { idFor } from '../../mail/queue';
import type { Sql } from '../../shared/sql';
import type { OrganizationRepository } from './repository';
import type { InvitationView, MemberView } from './views';

/**
 * Invitation mail, written to the outbox in the transaction that writes the invitation. The link carries the
 * invitation id under the product frontend's accept page (organization.invitationLinkBase), else the hosted
 * pages' invitation page when they are served, else PUBLIC_URL/accept-invitation. Language: the invitee's stored one when they have an account, else the inviter
 * request's Accept-Language, else ENG.
 */
export class InvitationMailer {
  constructor(
    private readonly outbox: MailOutbox,
    private readonly config: Config,
    private readonly orgs: OrganizationRepository,
  ) {}

  link(invitationId: string): string {
    const origin = this.config.publicUrl.replace(/\/+$/, '');
    const pages = this.config.hostedPages;
    // Unset: the hosted pages' invitation page when they are served (docs/hosted-pages.md), else /accept-invitation.
    const base =
      this.config.organization.invitationLinkBase ??
      (pages.enabled ? `${origin}${pages.path}/invitation` : `${origin}/accept-invitation`);
    return `${base.replace(/\/+$/, '')}/${encodeURIComponent(invitationId)}`;
  }

  /** Written in `tx`, the invitation's transaction (its reads too: no second connection while it holds one). */
  async send(invitation: InvitationView, inviter: MemberView, acceptLanguage: string | undefined, tx: Sql) {
    const organization = await this.orgs.findById(invitation.organizationId, tx);
    const invitee = await this.orgs.recipient(invitation.email, tx);
    const language = mailLanguage(invitee.language, acceptLanguage);
    // One job per (invitation, expiry): a resend that extended the expiry is a new mail, a retried write is not.
    const id = idFor('invitation', `${invitation.id}:${invitation.expiresAt}`);
    await this.outbox.write(
      id,
      {
        kind: 'invitation',
        to: invitation.email,
        name: invitee.name,
        language,
        url: this.link(invitation.id),
        organizationName: organization?.name ?? '',
        inviterName: inviter.user?.name ?? '',
        inviterEmail: inviter.user?.email ?? '',
        role: invitation.role,
      },
      tx,
    );
  }
}
