import type { SessionConfig } from '../../config';
import { isId, newId, newSessionToken } from '../../crypto/random';
import { fail } from '../../errors';
import type { AuditDetails, AuditEvent, AuditEventType, AuditLog, AuditSource } from '../../shared/audit';
import { banInForce } from '../../shared/ban';
import { BoundedMap } from '../../shared/bounded-map';
import type { Clock } from '../../shared/clock';
import { drainBatches } from '../../shared/drain-batches';
import { sessionJson } from '../../shared/session-json';
import type { Sql } from '../../shared/sql';
import type {
  ListedSessionView,
  SessionSecondFactor,
  SessionView,
  SessionWithUser,
  UserView,
} from '../../shared/views';
import type { KeyValueStore } from '../../store';
import { CacheEntry } from './cache-entry';
import type { SessionRepository } from './repository';
import { cacheKeyOf, SessionCache } from './session-cache';

export interface CreateSessionInput {
  user: UserView;
  rememberMe: boolean;
  ipAddress: string | null;
  userAgent: string | null;
  impersonatedBy?: string | null;
  /**
   * How the session is made, stored with it for the session lists (docs/sessions.md "How a session was made"): the
   * sign-in method as its event names it (`email`, `social:github`, `password-change`, `impersonation`, …) and the
   * second factor that completed the sign-in, if one was asked.
   */
  signIn: { method: string; secondFactor: SessionSecondFactor | null };
  /** Fixed lifetime that is never extended (impersonation, spec §4). */
  fixedLifetimeSec?: number;
  /**
   * The audit event of the new session (docs/audit.md), written in the transaction that inserts it: a sign-in's
   * `user.signed_in` (the sign-in seam's), an impersonation's, a password change's.
   */
  event: (created: SessionWithUser) => AuditEvent;
}

/**
 * What ends sessions, for the audit trail: the event type (a user's own sign-out or revocation, an operator's), who
 * asked and from where. The event targets the sessions' user and names the session in its details.
 */
export interface SessionEnd {
  type: AuditEventType;
  source: AuditSource;
  details?: AuditDetails;
}

export type ResolveSource = 'cache' | 'database';

export interface ResolveOptions {
  /** 'cache' may answer from Redis; 'database' always asks PostgreSQL (routes that change something). */
  source: ResolveSource;
  refresh: boolean;
}

export interface Resolved {
  /** The session and its user (from a Redis entry, parsed on first use: get-session's answer never needs it). */
  readonly current: SessionWithUser | null;
  /** The entry answered: its body and the facts checked (cache-entry.ts); null when there is no session. */
  entry: CacheEntry | null;
  /** The presented token named a session that expired (now deleted): clear the cookies. */
  expired: boolean;
  /** The session was renewed: send the session cookie again with the new expiry. */
  renewed: boolean;
  from: 'redis' | 'database' | 'none';
  /** The get-session body for `current` (response-schema serialized), '' when there is none. */
  json: string;
}

const NONE = { current: null, entry: null, expired: false, renewed: false, json: '' };

/** A found session's resolution; `current` parses the entry's body only when asked. */
function resolvedTo(entry: CacheEntry, renewed: boolean, from: Resolved['from']): Resolved {
  return {
    get current() {
      return entry.value;
    },
    entry,
    expired: false,
    renewed,
    from,
    json: entry.json,
  };
}

/**
 * Sessions per spec §4: created at sign-in, renewed past the update age (capped by the absolute lifetime),
 * deleted on expiry. PostgreSQL is the truth; Redis caches (session, user) by token hash.
 *
 * Every change that makes cached entries stale (revocation, ban, an active organization, a user's fields) fences
 * their keys before it commits and drops them after (session-cache.ts). The `…In(tx, …)` methods do their part
 * inside the caller's transaction and return the step to run after its commit.
 */
export class SessionService {
  /** Session id → its Redis cache key (resolveById); the pair never changes while the session lives. */
  private readonly idKeys = new BoundedMap<string, string>(4096);
  /** The Redis copies and their fences (session-cache.ts); null when the cache is off. */
  private readonly cache: SessionCache | null;

  constructor(
    private readonly repo: SessionRepository,
    store: KeyValueStore | null,
    private readonly config: SessionConfig,
    private readonly clock: Clock,
    private readonly audit: AuditLog,
  ) {
    this.cache = store
      ? new SessionCache(store, config.redisCacheTtlSec, (token) => this.repo.findWithUser(token))
      : null;
  }

  /**
   * Makes a session with its audit event, in `tx` when given (the sign-in seam spending a one-time proof, a password
   * change) or in a transaction of its own. Never for a user whose ban is in force (shared/ban.ts): refused before
   * anything is written, and again in the transaction, where the check goes with the INSERT. The INSERT holds the
   * user's row (foreign key), so a ban committing meanwhile waits for this transaction and then ends the session;
   * one committed before is seen by the check. The three statements go to PostgreSQL together (pipeline mode,
   * shared/sql.ts): a sign-in holds its connection for two round trips, this and the COMMIT.
   */
  async create(input: CreateSessionInput, tx?: Sql): Promise<SessionWithUser> {
    if (banInForce(input.user, this.clock.now())) fail('BANNED_USER');
    if (tx) return this.insertChecked(input, tx);
    return this.repo.transaction((own) => this.insertChecked(input, own));
  }

  private async insertChecked(input: CreateSessionInput, tx: Sql): Promise<SessionWithUser> {
    const { user } = input;
    const now = this.clock.now();
    const lifetimeSec =
      input.fixedLifetimeSec ?? (input.rememberMe ? this.config.expiresInSec : this.config.notRememberedExpiresInSec);
    const { session, written } = this.repo.insert(
      {
        id: newId(),
        token: newSessionToken(),
        userId: user.id,
        expiresAt: new Date(now + lifetimeSec * 1000),
        rememberMe: input.rememberMe,
        ipAddress: input.ipAddress,
        userAgent: input.userAgent,
        impersonatedBy: input.impersonatedBy ?? null,
        activeOrganizationId: null,
        signInMethod: input.signIn.method,
        secondFactor: input.signIn.secondFactor,
        now: new Date(now),
      },
      tx,
    );
    const created = { session, user };
    const [, , banned] = await Promise.all([
      written,
      this.audit.record(tx, input.event(created)),
      this.repo.banInForce(user.id, new Date(now), tx),
    ]);
    if (banned) fail('BANNED_USER');
    return created;
  }

  async resolve(token: string, options: ResolveOptions): Promise<Resolved> {
    let entry: CacheEntry | null = null;
    let from: Resolved['from'] = 'none';
    if (options.source === 'cache' && this.cache) {
      entry = await this.cache.read(cacheKeyOf(token));
      if (entry) from = 'redis';
    }
    if (!entry) {
      const value = await this.repo.findWithUser(token);
      if (!value) return { ...NONE, from: 'none' };
      entry = CacheEntry.of(value, sessionJson(value));
      from = 'database';
    }
    return this.settle(token, entry, from, options);
  }

  /**
   * By session id (a signed session token's `sid`), on the same fast path: the Redis entry is keyed
   * by the token's hash, so each instance remembers which key belongs to an id (fixed for a session's life)
   * after one PostgreSQL read. A revocation deletes that entry, so a revoked session is never answered.
   */
  async resolveById(id: string, options: ResolveOptions): Promise<Resolved> {
    if (!isId(id)) return { ...NONE, from: 'none' };
    const key = this.idKeys.get(id);
    if (key && options.source === 'cache' && this.cache) {
      const entry = await this.cache.read(key);
      if (entry && entry.head.id === id) return this.settle(entry.value.session.token, entry, 'redis', options);
    }
    const value = await this.repo.findWithUserById(id);
    if (!value) return { ...NONE, from: 'none' };
    this.idKeys.set(id, cacheKeyOf(value.session.token));
    return this.settle(value.session.token, CacheEntry.of(value, sessionJson(value)), 'database', options);
  }

  private async settle(
    token: string,
    found: CacheEntry,
    from: Resolved['from'],
    options: ResolveOptions,
  ): Promise<Resolved> {
    let entry = found;
    const now = this.clock.now();
    // The entry's head: a hit is checked without parsing its body.
    if (entry.head.expiresAt <= now || entry.bannedAt(now)) {
      await this.dropCached(await this.repo.deleteByToken(token));
      return { ...NONE, expired: true, from };
    }
    let renewed = false;
    if (options.refresh && this.isRenewable(entry.head, now)) {
      const current = entry.value;
      const next = this.renewedExpiry(current.session, now);
      if (!(await this.repo.extend(current.session.id, next, new Date(now)))) {
        await this.dropCached([token]);
        return { ...NONE, from: 'database' };
      }
      const value = {
        session: { ...current.session, expiresAt: next.toISOString(), updatedAt: new Date(now).toISOString() },
        user: current.user,
      };
      entry = CacheEntry.of(value, sessionJson(value));
      renewed = true;
    }
    // A cache miss fills the entry; a deliberate PostgreSQL read (routes that change something) leaves Redis alone,
    // sparing those routes a write and the fill's re-check query. A renewal always rewrites it (new expiry).
    const missed = from === 'database' && options.source === 'cache';
    if (this.cache && (missed || renewed)) await this.cache.fill(entry, now);
    return resolvedTo(entry, renewed, from);
  }

  /**
   * Sessions of a user that they may see, each with how it was made: an impersonation session is the operator's,
   * hidden (docs/SPEC.md §4).
   */
  async list(userId: string): Promise<ListedSessionView[]> {
    const sessions = await this.repo.listActive(userId, new Date(this.clock.now()));
    return sessions.filter((s) => !s.impersonatedBy);
  }

  /**
   * Every active session of a user, hidden ones included, each with how it was made (operators, spec §7 admin
   * list-user-sessions).
   */
  listAll(userId: string): Promise<ListedSessionView[]> {
    return this.repo.listActive(userId, new Date(this.clock.now()));
  }

  /** Revokes `token` only if it belongs to `userId`; returns whether anything was revoked. */
  async revokeOwn(userId: string, token: string, end: SessionEnd): Promise<boolean> {
    return this.revokeOne(token, userId, end);
  }

  /** Revokes the session with this id (operators name sessions by id); unknown ids change nothing. */
  async revokeById(id: string, end: SessionEnd): Promise<boolean> {
    if (!isId(id)) return false;
    const token = await this.repo.tokenOf(id);
    return token ? this.revoke(token, end) : false;
  }

  /** Revokes `token`, whoever's it is (sign-out, operators); returns whether anything was revoked. */
  revoke(token: string, end: SessionEnd): Promise<boolean> {
    return this.revokeOne(token, null, end);
  }

  /**
   * Fence, then the delete and its event in one transaction, then the cache entry dropped. A sign-out comes without
   * a session guard: its actor is the session's own user (and the admin behind an impersonation session).
   */
  private async revokeOne(token: string, userId: string | null, end: SessionEnd): Promise<boolean> {
    await this.cache?.fence([token]);
    const removed = await this.repo.transaction(async (tx) => {
      const row = await this.repo.deleteOne(token, userId, tx);
      if (!row) return false;
      const source: AuditSource =
        end.source.actor.type === 'anonymous'
          ? { ...end.source, actor: { type: 'user', id: row.userId, impersonatorId: row.impersonatedBy } }
          : end.source;
      await this.audit.record(tx, {
        type: end.type,
        source,
        target: { type: 'user', id: row.userId },
        details: { sessionId: row.id, ...end.details },
      });
      return true;
    });
    await this.dropCached([token]);
    return removed;
  }

  /** Ends every session of the user (but `exceptToken`) and records `end` with them, in one transaction. */
  async revokeAllForUser(userId: string, end: SessionEnd, exceptToken?: string): Promise<void> {
    await this.inTransaction(async (tx) => {
      const evict = await this.endAllForUserIn(tx, userId, exceptToken);
      await this.audit.record(tx, {
        type: end.type,
        source: end.source,
        target: { type: 'user', id: userId },
        details: end.details,
      });
      return evict;
    });
  }

  /**
   * Ends every session of a user (but `exceptToken`) inside the caller's transaction: deleting or banning the user,
   * a new password. The user's row is locked first, so no session of theirs is added before the commit (and two
   * such operations on one user take their locks in the same order). Returns the step that drops their Redis
   * entries, to run after the commit.
   */
  async endAllForUserIn(tx: Sql, userId: string, exceptToken?: string): Promise<() => Promise<void>> {
    await this.repo.lockUser(userId, tx);
    const tokens = await this.repo.deleteForUser(userId, exceptToken, tx);
    await this.cache?.fence(tokens);
    return () => this.dropCached(tokens);
  }

  /**
   * After a change of the user's record inside the caller's transaction: their sessions' cached copies are fenced;
   * returns the step that drops them, to run after the commit.
   */
  async forgetUserIn(tx: Sql, userId: string): Promise<() => Promise<void>> {
    if (!this.cache) return async () => {};
    const tokens = await this.repo.tokensOf(userId, tx);
    await this.cache?.fence(tokens);
    return () => this.dropCached(tokens);
  }

  /**
   * Runs `change`, a write to the user's record (role, email, profile, ban lifted), in a transaction that also
   * fences their sessions' cache entries (forgetUserIn); they are dropped after the commit.
   */
  changeUser<T>(userId: string, change: (tx: Sql) => Promise<T>): Promise<T> {
    return this.inTransaction(async (tx) => {
      const result = await change(tx);
      const evict = await this.forgetUserIn(tx, userId);
      return async () => {
        await evict();
        return result;
      };
    });
  }

  /**
   * Organization feature: sets the active organization of the session `token`, so get-session never answers the
   * old value. Returns the updated session (null when it is gone).
   */
  async setActiveOrganization(token: string, organizationId: string | null): Promise<SessionWithUser | null> {
    await this.cache?.fence([token]);
    const updated = await this.repo.setActiveOrganization(token, organizationId);
    await this.dropCached([token]);
    return updated ? this.repo.findWithUser(token) : null;
  }

  /**
   * setActiveOrganization inside the caller's transaction (accepting an invitation, creating an organization);
   * returns the step to run after the commit, which drops the Redis entry and answers the updated session.
   */
  async setActiveOrganizationIn(
    tx: Sql,
    token: string,
    organizationId: string | null,
  ): Promise<() => Promise<SessionWithUser | null>> {
    const updated = await this.repo.setActiveOrganization(token, organizationId, tx);
    await this.cache?.fence([token]);
    return async () => {
      await this.dropCached([token]);
      return updated ? this.repo.findWithUser(token) : null;
    };
  }

  /**
   * Clears `organizationId` as the active organization of every session of `userId` (several users: an array;
   * null: of everyone) inside the caller's transaction; returns the step that drops their Redis entries, to run
   * after the commit.
   */
  async clearActiveOrganizationIn(
    tx: Sql,
    organizationId: string,
    userId: string | readonly string[] | null,
  ): Promise<() => Promise<void>> {
    const userIds = typeof userId === 'string' ? [userId] : userId;
    if (userIds?.length === 0) return async () => {};
    const tokens = await this.repo.clearActiveOrganization(organizationId, userIds, tx);
    await this.cache?.fence(tokens);
    return () => this.dropCached(tokens);
  }

  /** Runs the `…In` step `work` in a transaction of its own, then what it returned, after the commit. */
  private async inTransaction<T>(work: (tx: Sql) => Promise<() => Promise<T>>): Promise<T> {
    const after = await this.repo.transaction(work);
    return after();
  }

  /** Deletes sessions past their expiry in batches; returns how many went. Run periodically by the API process. */
  sweepExpired(batch = 1000): Promise<number> {
    return drainBatches(async (limit) => {
      const removed = await this.repo.deleteExpired(new Date(this.clock.now()), limit);
      await this.dropCached(removed);
      return removed.length;
    }, batch);
  }

  isFresh(session: SessionView, freshAgeSec = this.config.freshAgeSec): boolean {
    return this.clock.now() - Date.parse(session.createdAt) <= freshAgeSec * 1000;
  }

  private isRenewable(head: CacheEntry['head'], now: number): boolean {
    if (head.impersonated) return false; // spec §4 / SECURITY: never extended past its fixed lifetime
    return now - head.updatedAt > this.config.updateAgeSec * 1000;
  }

  private renewedExpiry(session: SessionView, now: number): Date {
    const lifetime = session.rememberMe ? this.config.expiresInSec : this.config.notRememberedExpiresInSec;
    const cap = Date.parse(session.createdAt) + this.config.absoluteLifetimeSec * 1000;
    return new Date(Math.min(now + lifetime * 1000, cap));
  }

  /** Drops the Redis copies of these sessions (after the change that fenced them committed). */
  private async dropCached(tokens: string[]): Promise<void> {
    await this.cache?.drop(tokens);
  }
}
