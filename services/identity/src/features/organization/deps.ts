import type { Config } from '../../config';
import type { MailOutbox } from '../../mail/mail-outbox';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { SessionService } from '../session';
import type { OperatorLookup } from './membership';

/** What the organization feature needs from outside. */
export interface OrganizationFeatureDeps {
  sql: Sql;
  /** Sessions' active organization (set-active, and cleared when a membership ends). */
  sessions: SessionService;
  config: Config;
  clock: Clock;
  /** Invitation mails, written in the transaction of the invitation. */
  mail: MailOutbox;
  /** Every change of an organization, its members, invitations and teams is recorded in its transaction. */
  audit: AuditLog;
  /**
   * Who counts as an operator for invitations an operator sent (the admin feature's rule, when both features are
   * on): such an invitation stays valid while its inviter holds the admin `organization: manage` permission.
   */
  operators: OperatorLookup | null;
}
