import type { Config } from '../../config';
import type { Sealer } from '../../crypto/sealed';
import type { AuditLog } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { UserView } from '../../shared/views';
import type { KeyEvents } from './key-events';

/**
 * The user's role in an organization, or null when not a member, or a member without the second factor the
 * organization requires (organization feature; null when off).
 */
export type MemberRoleLookup = (organizationId: string, user: UserView) => Promise<string | null>;

/** What the JWT feature needs from outside. */
export interface JwtDeps {
  sql: Sql;
  config: Config;
  clock: Clock;
  /** Seals the private keys at rest. */
  sealer: Sealer;
  /** Rotation notices between instances (Redis pub/sub); null with one instance. */
  events: KeyEvents | null;
  /** The caller's role in its active organization, for the token's claims (organization feature). */
  memberRole: MemberRoleLookup;
  /** A new signing key (first, rotated by hand or when due) is recorded with it, by the system. */
  audit: AuditLog;
  warn: (message: string) => void;
  /**
   * Algorithms that each keep an active key beside `jwt.alg`'s, published and rotated with it (RS256 for the
   * OpenID provider's id tokens); none by default.
   */
  companionAlgs?: Array<Config['jwt']['alg']>;
}
