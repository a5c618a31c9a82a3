import { createHash } from 'node:crypto';
import { BoundedMap } from '../../shared/bounded-map';
import { TickBatcher } from '../../shared/tick-batcher';
import type { SessionWithUser } from '../../shared/views';
import type { KeyValueStore } from '../../store';
import { CacheEntry } from './cache-entry';

/**
 * The sessions' Redis copies and the fence protocol that keeps them right (docs/sessions.md). PostgreSQL is the
 * truth; Redis holds (session, user) by token hash, so a Redis dump holds no usable token.
 *
 * - **Entries** are a short head of the facts a lookup checks (entry-head.ts), then the get-session body: a hit
 *   checks the head and sends the body as it is, parsing it only when something asks for the session itself.
 * - **Reads** of one event-loop turn share one MGET (as the database lookups share one query).
 * - **Fences**: every change that makes entries stale (a revocation, a ban, an active organization, a user's
 *   fields) fences their keys before it commits and drops them after. A fence is never answered and never
 *   overwritten by a fill, so no entry written from the old state survives the change, even when the process dies
 *   between the commit and the drop.
 * - **Fills** happen unless fenced, then re-check PostgreSQL: a change made without a fence that committed before
 *   the re-check is seen, and the entry dropped.
 *
 * Redis down or flushed is a miss: PostgreSQL answers (docs/operations.md).
 */
export class SessionCache {
  private readonly reads: TickBatcher<string, string | null>;

  constructor(
    private readonly store: KeyValueStore,
    private readonly ttlSec: number,
    /** The session as PostgreSQL holds it now, for the re-check after a fill. */
    private readonly current: (token: string) => Promise<SessionWithUser | null>,
  ) {
    this.reads = new TickBatcher(async (keys: string[]) => {
      const values = await store.getMany(keys);
      return new Map(keys.map((key, i) => [key, values[i]]));
    }, READ_BATCH);
  }

  /** The entry under `key` (cacheKeyOf), or null: a miss, a fence, an entry of an older shape, Redis unavailable. */
  async read(key: string): Promise<CacheEntry | null> {
    try {
      const raw = await this.reads.load(key);
      return raw ? CacheEntry.read(raw) : null;
    } catch {
      return null;
    }
  }

  /**
   * Writes the entry unless its key is fenced, then re-checks. A change that lands between our database read and
   * this write would otherwise leave a stale entry for the whole TTL. Its fence, written before it commits, either
   * comes before our fill (which then writes nothing) or replaces what we wrote; the re-read covers changes made
   * without a fence. Costs one indexed query per cache miss, none on hits.
   */
  async fill(entry: CacheEntry, now: number): Promise<void> {
    const { value } = entry;
    const ttl = Math.min(this.ttlSec, (entry.head.expiresAt - now) / 1000);
    if (ttl < 1) return;
    const key = cacheKeyOf(value.session.token);
    try {
      if (!(await this.store.fill(key, entry.stored(), ttl))) return;
    } catch {
      return; // Redis unavailable: PostgreSQL keeps answering
    }
    const latest = await this.current(value.session.token);
    const stale =
      !latest ||
      latest.session.activeOrganizationId !== value.session.activeOrganizationId ||
      JSON.stringify(latest.user) !== JSON.stringify(value.user);
    if (stale) await this.store.del(key).catch(() => {});
  }

  /** Before a change commits: these sessions' entries are never answered or filled again until dropped. */
  async fence(tokens: string[]): Promise<void> {
    if (tokens.length) await this.store.fence(tokens.map(cacheKeyOf), this.ttlSec);
  }

  /** After the change committed: the entries (and their fences) go. */
  async drop(tokens: string[]): Promise<void> {
    if (tokens.length) await this.store.del(...tokens.map(cacheKeyOf));
  }
}

/** Keys per MGET: the get-session requests of one event-loop turn under load. */
const READ_BATCH = 128;

/** Redis keys are token hashes; memoized, as get-session asks on every hit. */
const cacheKeys = new BoundedMap<string, string>(4096);
export function cacheKeyOf(token: string): string {
  let key = cacheKeys.get(token);
  if (key === undefined) {
    key = `session:${createHash('sha256').update(token).digest('base64url')}`;
    cacheKeys.set(token, key);
  }
  return key;
}
