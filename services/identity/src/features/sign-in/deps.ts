import type { Clock } from '../../shared/clock';
import type { SecondFactorGate } from '../../shared/sign-in';
import type { Sql } from '../../shared/sql';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { CreateSessionInput } from '../session';

/** What the sign-in seam needs from outside. */
export interface SignInDeps {
  sql: Sql;
  clock: Clock;
  /** Makes the session and its event in one transaction (the session feature's SessionService fits). */
  sessions: { create(input: CreateSessionInput, tx?: Sql): Promise<SessionWithUser> };
  /** The second factor (the two-factor feature's gate); null: no method asks one. */
  secondFactor: SecondFactorGate | null;
  /**
   * Clears a ban whose end has passed, recording it (the admin feature's ban policy); answers the user as now, or
   * null when another request cleared it first. Null when the admin feature is off: a lapsed ban is then ignored.
   */
  lapsedBans: { lift(user: UserView): Promise<UserView | null> } | null;
}
