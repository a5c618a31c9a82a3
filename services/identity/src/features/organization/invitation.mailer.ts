import type { Config } from '../../config';
import type { MailQueue } from '../../mail/jobs';
import { idFor } from '../../mail/queue';
import { mailLanguage } from '../account/mailer';
import type { OrganizationRepository } from './repository';
import type { InvitationView, MemberView } from './views';

/**
 * Invitation mail through the mail queue (DESIGN §3 Mail). The link carries the invitation id under the product
 * frontend's accept page (organization.invitationLinkBase), else PUBLIC_URL/accept-invitation. Language: the
 * invitee's stored one when they have an account, else the inviter request's Accept-Language, else ENG.
 */
export class InvitationMailer {
  constructor(
    private readonly queue: MailQueue,
    private readonly config: Config,
    private readonly orgs: OrganizationRepository,
  ) {}

  link(invitationId: string): string {
    const base =
      this.config.organization.invitationLinkBase ?? `${this.config.publicUrl.replace(/\/+$/, '')}/accept-invitation`;
    return `${base.replace(/\/+$/, '')}/${encodeURIComponent(invitationId)}`;
  }

  async send(invitation: InvitationView, inviter: MemberView, acceptLanguage?: string): Promise<void> {
    const organization = await this.orgs.findById(invitation.organizationId);
    const invitee = await this.orgs.recipient(invitation.email);
    const language = mailLanguage(invitee.language, acceptLanguage);
    // One job per (invitation, expiry): a resend that extended the expiry is a new mail, a retried enqueue is not.
    const id = idFor('invitation', `${invitation.id}:${invitation.expiresAt}`);
    await this.queue.enqueue(id, {
      kind: 'invitation',
      to: invitation.email,
      name: invitee.name,
      language,
      url: this.link(invitation.id),
      organizationName: organization?.name ?? '',
      inviterName: inviter.user?.name ?? '',
      inviterEmail: inviter.user?.email ?? '',
      role: invitation.role,
    });
  }
}
