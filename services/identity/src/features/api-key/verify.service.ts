import { createHash } from 'node:crypto';
import { type Permissions, Role, SERVICE_PERMISSION } from '../../access';
import type { Config } from '../../config';
import type { ErrorCode } from '../../errors';
import type { Clock } from '../../shared/clock';
import { type KeyValueStore, MemoryStore } from '../../store';
import type { ApiKeyRepository } from './repository';
import type { ApiKeyView } from './views';

/** Keys are random base62 text, far from this long; anything longer is refused before hashing. */
const MAX_KEY_LENGTH = 512;

export const hashApiKey = (key: string): string => createHash('sha256').update(key).digest('base64url');

export type Verification =
  | { valid: true; key: ApiKeyView }
  | { valid: false; code: ErrorCode; tryAgainIn?: number; key?: ApiKeyView };

/**
 * Verification of a presented key (better-auth's order): found, enabled, not expired, holds the asked permissions,
 * within its rate limit, then one use spent. The rate limit counts in Redis (one atomic INCR per fixed window,
 * shared by every instance), in this process while Redis is away; uses are spent by one guarded UPDATE.
 */
export class ApiKeyVerifier {
  private readonly local: MemoryStore;

  constructor(
    private readonly repo: ApiKeyRepository,
    private readonly store: KeyValueStore,
    private readonly config: Config['apiKey'],
    private readonly clock: Clock,
  ) {
    this.local = new MemoryStore(clock.now, 50_000);
  }

  async verify(presented: unknown, permissions?: Permissions): Promise<Verification> {
    if (typeof presented !== 'string' || presented.length < 16 || presented.length > MAX_KEY_LENGTH)
      return { valid: false, code: 'INVALID_API_KEY' };
    const key = await this.repo.findByHash(hashApiKey(presented));
    if (!key) return { valid: false, code: 'INVALID_API_KEY' };
    const now = this.clock.now();
    if (!key.enabled) return { valid: false, code: 'KEY_DISABLED' };
    if (key.expiresAt && Date.parse(key.expiresAt) <= now) return { valid: false, code: 'KEY_EXPIRED' };
    // better-auth: a key without the asked permissions answers as if it did not exist.
    if (permissions && !holds(key, permissions)) return { valid: false, code: 'KEY_NOT_FOUND' };
    const window = await this.countRequest(key, now);
    if (window.limited) return { valid: false, code: 'RATE_LIMITED', tryAgainIn: window.tryAgainIn };
    const spent = await this.repo.spendUse(key.id, new Date(now), window.count);
    if (spent) return { valid: true, key: spent };
    const latest = await this.repo.findById(key.id);
    if (!latest) return { valid: false, code: 'INVALID_API_KEY' }; // deleted meanwhile
    if (latest.remaining !== null && latest.remaining <= 0) return { valid: false, code: 'USAGE_EXCEEDED' };
    return { valid: false, code: 'FAILED_TO_UPDATE_API_KEY' };
  }

  /**
   * Fixed windows of the key's length: the count of the current window. A key over its maximum is refused until
   * the window ends (`tryAgainIn` ms); the refused requests are counted too, which changes nothing.
   */
  private async countRequest(
    key: ApiKeyView,
    now: number,
  ): Promise<{ count: number; limited: boolean; tryAgainIn?: number }> {
    const windowMs = key.rateLimitTimeWindow;
    const max = key.rateLimitMax;
    if (!this.config.rateLimit.enabled || !key.rateLimitEnabled || !windowMs || !max)
      return { count: key.requestCount, limited: false };
    const start = Math.floor(now / windowMs) * windowMs;
    const counter = `api-key-rate:${key.id}:${start}`;
    const ttlSec = Math.ceil(windowMs / 1000) + 1;
    const count = await this.store.incr(counter, ttlSec).catch(() => this.local.incr(counter, ttlSec));
    if (count <= max) return { count, limited: false };
    return { count: max, limited: true, tryAgainIn: start + windowMs - now };
  }
}

/** Whether the key's permissions grant every action asked for (the pure access model). */
export function holds(key: ApiKeyView, permissions: Permissions): boolean {
  return !!key.permissions && new Role(key.permissions).authorize(permissions).success;
}

export const isServiceKey = (key: ApiKeyView): boolean => holds(key, SERVICE_PERMISSION);
