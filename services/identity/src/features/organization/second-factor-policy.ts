import { hasSecondFactor } from '../../shared/second-factor';
import type { Sql } from '../../shared/sql';
import type { OrganizationDeps } from './membership';

/** What a change did to the sessions' active organizations: which ones it cleared, and the step after its commit. */
export interface PolicyClearing {
  /** The organizations no longer active in the user's sessions. */
  organizationIds: string[];
  /** Drops the sessions' Redis entries (fenced inside the transaction); run after the commit. */
  after: () => Promise<void>;
}

/** What the second-factor policy uses. */
export type PolicyDeps = Pick<OrganizationDeps, 'orgs' | 'sessions'>;

/**
 * An organization's `requireTwoFactor` (docs/two-factor.md "Policies") as the sessions see it: a session never keeps
 * as its active organization one that requires a second factor its user does not hold. Each change that could
 * leave one so clears it in its own transaction, with the sessions' cache entries fenced before the commit
 * (docs/sessions.md), so get-session needs no check of its own:
 *
 * - a user's second factor removed (two-factor/disable, admin reset-two-factor): `secondFactorLostIn`;
 * - the policy turned on (organization/update, admin/organization/update): `turnedOnIn`;
 * - set-active and accepting an invitation check the policy holding the same rows (organization.service.ts,
 *   accept.service.ts), so a check and a concurrent change are decided one after the other.
 *
 * Lock order, the same everywhere: the user's row, then the organization's.
 */
export class SecondFactorPolicy {
  constructor(private readonly d: PolicyDeps) {}

  /**
   * In the transaction that removed a second factor of `userId`: when the user holds none any more, the
   * organizations requiring one stop being active in their sessions. The user's row is locked (a concurrent
   * set-active or accept waits, then sees the change), then the organizations their sessions have active (a policy
   * turned on meanwhile is seen once its change commits).
   */
  async secondFactorLostIn(tx: Sql, userId: string): Promise<PolicyClearing> {
    const user = await this.d.orgs.lockUser(userId, tx, 'update');
    if (!user || hasSecondFactor(user)) return { organizationIds: [], after: async () => {} };
    const active = await this.d.orgs.lockActiveOrganizationsOf(userId, tx);
    const organizationIds = active.filter((o) => o.requireTwoFactor).map((o) => o.id);
    const steps: Array<() => Promise<void>> = [];
    for (const id of organizationIds) steps.push(await this.d.sessions.clearActiveOrganizationIn(tx, id, userId));
    return {
      organizationIds,
      after: async () => {
        for (const step of steps) await step();
      },
    };
  }

  /**
   * In the transaction that turned the policy on (the organization's row written, so locked): the members without a
   * second factor lose it as their active organization. Answers the step to run after the commit.
   */
  async turnedOnIn(tx: Sql, organizationId: string): Promise<() => Promise<void>> {
    const members = await this.d.orgs.membersWithActive(organizationId, tx);
    const without = members.filter((user) => !hasSecondFactor(user)).map((user) => user.id);
    return this.d.sessions.clearActiveOrganizationIn(tx, organizationId, without);
  }
}
