import { isId } from '../../crypto/random';
import { fail } from '../../errors';
import { type AuditSource, SYSTEM_SOURCE, userTarget } from '../../shared/audit';
import type { SessionWithUser, UserView } from '../../shared/views';
import type { AdminPasskey, LinkedAccount } from './deps';
import { filteredTwice, planListUsers } from './list-query';
import type { AdminParts } from './parts';
import type { CreateUserInput, ListUsersQuery, UserUpdate } from './schemas';
import { indexProbes } from './search-trigrams';

/** Fields `data` may carry on create-user and update-user: never id, email, role, ban fields or emailVerified (spec §3). */
export const USER_DATA_FIELDS = ['name', 'image', 'language'] as const;

export interface UserList {
  users: UserView[];
  total: number;
  limit?: number;
  offset?: number;
}

/** What user management uses. */
export type UsersDeps = Pick<
  AdminParts,
  | 'repo'
  | 'trigrams'
  | 'access'
  | 'accounts'
  | 'passwords'
  | 'deletion'
  | 'sessions'
  | 'config'
  | 'clock'
  | 'audit'
  | 'linkedAccounts'
  | 'secondFactors'
  | 'passkeys'
>;

/** Operator user management (spec §7 admin calls); every call re-checks the caller's permission. */
export class AdminUsersService {
  constructor(private readonly d: UsersDeps) {}

  /** `auth` null: the operations CLI, which runs with the database credentials and needs no session. */
  async create(
    auth: SessionWithUser | null,
    input: CreateUserInput,
    source: AuditSource = SYSTEM_SOURCE,
  ): Promise<UserView> {
    const { access, accounts, config } = this.d;
    if (auth) access.demand(auth, { user: ['create'] }, 'NOT_ALLOWED_TO_CREATE_USERS');
    let role = config.admin.defaultRole;
    if (input.role !== undefined) {
      if (auth) access.demand(auth, { user: ['set-role'] }, 'NOT_ALLOWED_TO_CHANGE_USERS_ROLE');
      role = access.roleText(input.role);
    }
    const { data = {} } = input;
    return accounts.createUser(
      { email: input.email, name: input.name, role, image: data.image, language: data.language },
      input.password,
      source,
    );
  }

  async get(auth: SessionWithUser, id: string): Promise<UserView> {
    this.d.access.demand(auth, { user: ['get'] }, 'NOT_ALLOWED_TO_GET_USER');
    return (isId(id) && (await this.d.accounts.getUser(id))) || fail('FAILED_TO_FIND_USER');
  }

  /** The user's linked accounts (provider logins and the credential): never a token or the password hash. */
  async accounts(auth: SessionWithUser, userId: string): Promise<LinkedAccount[]> {
    this.d.access.demand(auth, { user: ['get'] }, 'NOT_ALLOWED_TO_GET_USER');
    if (!isId(userId) || !(await this.d.accounts.getUser(userId))) fail('FAILED_TO_FIND_USER');
    const accounts = await this.d.linkedAccounts(userId);
    // Only the admin view's fields: the response schema would drop the rest, this keeps it out of reach too.
    return accounts.map(({ id, providerId, accountId, scopes, createdAt, updatedAt }) => {
      return { id, providerId, accountId, scopes, createdAt, updatedAt };
    });
  }

  /** The user's passkeys (docs/two-factor.md "For operators"): what names them to the person, never their keys. */
  async passkeys(auth: SessionWithUser, userId: string): Promise<AdminPasskey[]> {
    this.d.access.demand(auth, { user: ['get'] }, 'NOT_ALLOWED_TO_GET_USER');
    if (!isId(userId) || !(await this.d.accounts.getUser(userId))) fail('FAILED_TO_FIND_USER');
    const passkeys = await this.d.passkeys.list(userId);
    return passkeys.map(({ id, name, deviceType, backedUp, aaguid, createdAt }) => {
      return { id, name, deviceType, backedUp, aaguid, createdAt };
    });
  }

  /** name, image and language through the account feature; role through set-role's rules. */
  async update(auth: SessionWithUser, userId: string, data: UserUpdate, source: AuditSource): Promise<UserView> {
    const { access, accounts } = this.d;
    access.demand(auth, { user: ['update'] }, 'NOT_ALLOWED_TO_UPDATE_USERS');
    const { role, ...profile } = data;
    if (role === undefined && Object.keys(profile).length === 0) fail('NO_DATA_TO_UPDATE');
    if (!isId(userId)) fail('FAILED_TO_FIND_USER');
    if (role !== undefined) await this.setRole(auth, userId, role, source);
    if (Object.keys(profile).length === 0) return (await accounts.getUser(userId)) ?? fail('FAILED_TO_FIND_USER');
    if (!(await accounts.getUser(userId))) fail('FAILED_TO_FIND_USER');
    return accounts.updateProfile(userId, profile, source, 'admin.user.updated');
  }

  /** The new role applies at once: cached copies of the user's sessions are dropped. */
  async setRole(
    auth: SessionWithUser | null,
    userId: string,
    role: string | string[],
    source: AuditSource = SYSTEM_SOURCE,
  ): Promise<UserView> {
    const { access, repo, sessions, clock, audit } = this.d;
    if (auth) access.demand(auth, { user: ['set-role'] }, 'NOT_ALLOWED_TO_CHANGE_USERS_ROLE');
    const text = access.roleText(role);
    if (!isId(userId)) fail('FAILED_TO_FIND_USER');
    const now = new Date(clock.now());
    const user = await sessions.changeUser(userId, async (tx) => {
      const changed = await repo.setRole(userId, text, now, tx);
      if (changed)
        await audit.record(tx, {
          type: 'admin.user.role_set',
          source,
          target: userTarget(userId),
          details: { role: text },
        });
      return changed;
    });
    return user ?? fail('FAILED_TO_FIND_USER');
  }

  /**
   * spec §7: a bad query answers an empty list with total 0. The filter parameters beside it (an extension) are
   * refused with an error instead: a field filtered twice (the schema refuses their bad values).
   */
  async list(auth: SessionWithUser | null, query: ListUsersQuery): Promise<UserList> {
    if (auth) this.d.access.demand(auth, { user: ['list'] }, 'NOT_ALLOWED_TO_LIST_USERS');
    const twice = filteredTwice(query);
    if (twice) fail('USER_FILTERED_TWICE', [{ field: twice, problem: `filterField is ${twice} too` }]);
    const plan = planListUsers(query, (field, text) => indexProbes(text, this.d.trigrams.of(field)));
    if (!plan) return { users: [], total: 0 };
    const { users, total } = await this.d.repo.listUsers(plan);
    return { users, total, limit: plan.limit, offset: plan.offset };
  }

  async remove(auth: SessionWithUser, userId: string, source: AuditSource): Promise<void> {
    this.d.access.demand(auth, { user: ['delete'] }, 'NOT_ALLOWED_TO_DELETE_USERS');
    if (userId === auth.user.id) fail('CANNOT_REMOVE_YOURSELF');
    if (!isId(userId) || !(await this.d.accounts.getUser(userId))) fail('FAILED_TO_FIND_USER');
    await this.d.deletion.removeUser(userId, source);
  }

  async setPassword(auth: SessionWithUser, userId: string, newPassword: string, source: AuditSource): Promise<void> {
    const { access, accounts, passwords } = this.d;
    access.demand(auth, { user: ['set-password'] }, 'NOT_ALLOWED_TO_SET_USERS_PASSWORD');
    accounts.assertPasswordLength(newPassword);
    if (!isId(userId) || !(await accounts.getUser(userId))) fail('FAILED_TO_FIND_USER');
    await passwords.forcePassword(userId, newPassword, source);
  }

  /**
   * Removes the user's second factors (docs/two-factor.md "For operators"): TOTP secret, backup codes, pending
   * sign-ins, trusted devices and passkeys, with the audit event and the notice, in one transaction. Answers the user.
   */
  async resetTwoFactor(auth: SessionWithUser, userId: string, source: AuditSource, lang?: string): Promise<UserView> {
    const { access, accounts, secondFactors } = this.d;
    access.demand(auth, { user: ['set-password'] }, 'NOT_ALLOWED_TO_RESET_USERS_TWO_FACTOR');
    if (userId === auth.user.id) fail('CANNOT_RESET_YOUR_OWN_TWO_FACTOR');
    const user = (isId(userId) && (await accounts.getUser(userId))) || fail('FAILED_TO_FIND_USER');
    return secondFactors.reset(user, source, lang);
  }
}
