import { exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { JwtConfig } from '../../config';
import { newId } from '../../crypto/random';
import { type Sealer, unreadableSealed } from '../../crypto/sealed';
import { failLogged } from '../../errors';
import { type AuditLog, SYSTEM_SOURCE } from '../../shared/audit';
import type { Clock } from '../../shared/clock';
import { FOREIGN_CLOCK_SKEW_SEC } from '../../shared/clock';
import type { Sql } from '../../shared/sql';
import type { KeyEvents } from './key-events';
import type { KeyRepository, KeyRow } from './repository';

export type SigningAlg = JwtConfig['alg'];

/** A published key: always names its kid, alg and use. */
export type PublicJwk = JWK & { kid: string; kty: string; alg: string; use: string };

export interface SigningKey {
  kid: string;
  alg: SigningAlg;
  /** Public JWK as published in `/jwks` (kid, alg, use). */
  publicJwk: PublicJwk;
  /** The private JWK (kid, alg, use): for a signer that takes keys as JWKs (the OpenID provider's keystore). */
  privateJwk: JWK & { kid: string; alg: string; use: string };
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  createdAt: number;
  retiredAt: number | null;
}

/** Margin for the clocks of the services that verify our tokens (ours all follow the database's clock). */
const SKEW_MS = FOREIGN_CLOCK_SKEW_SEC * 1000;
/** An unknown kid reloads the key set at most this often (a rotation made by another instance). */
const UNKNOWN_KID_RELOAD_MS = 5_000;

/**
 * The signing keys, held in process: loaded from PostgreSQL once, then reloaded every `keyRefreshSec`, on a
 * rotation notice (Redis pub/sub) and on an unknown kid; never read per request. Key-set changes run under an
 * advisory lock, so two instances starting together create one key and two due rotations make one.
 * A retired key stays published until every token it can have signed has expired: its retirement, plus the
 * refresh interval (an instance that has not heard of the rotation still signs with it), plus the token
 * lifetime, plus clock skew. Then it is dropped from `/jwks` and deleted.
 *
 * There is one active key per algorithm in use: the configured one (`jwt.alg`), which signs the session tokens,
 * and each companion algorithm the process asks for (RS256 for the OpenID provider, whose id tokens must verify
 * with RS256 for clients that ask for no other algorithm). A rotation replaces every active key.
 */
export class SigningKeys {
  private keys: SigningKey[] = [];
  private decoded = new Map<string, SigningKey>();
  private loaded: Promise<void> | null = null;
  private ensuring: Promise<void> | null = null;
  private lastReload = 0;
  private timer: NodeJS.Timeout | null = null;
  private unsubscribe: (() => Promise<void>) | null = null;
  private fingerprint = '';
  private changes = 0;
  /** The algorithms that each have an active key: the configured one first. */
  private readonly algs: SigningAlg[];

  constructor(
    private readonly repo: KeyRepository,
    private readonly config: JwtConfig,
    private readonly sealer: Sealer,
    private readonly clock: Clock,
    private readonly events: KeyEvents | null,
    private readonly audit: AuditLog,
    private readonly onError: (message: string) => void = () => {},
    companions: SigningAlg[] = [],
  ) {
    this.algs = [...new Set([config.alg, ...companions])];
  }

  /** Goes up each time a reload finds another key set (a key made, retired or dropped): a cheap change check. */
  get generation(): number {
    return this.changes;
  }

  /** How long a retired key stays published (ms). */
  get retentionMs(): number {
    return (this.config.expiresInSec + this.config.keyRefreshSec) * 1000 + SKEW_MS;
  }

  /**
   * The active key of the configured algorithm (or of a companion `alg`); created (first start) or rotated (due)
   * when needed.
   */
  async signingKey(alg: SigningAlg = this.config.alg): Promise<SigningKey> {
    await this.ensureLoaded();
    const active = this.activeOf(alg);
    if (active && !this.isDue(active.createdAt)) return active;
    await this.ensureActive();
    const made = this.activeOf(alg);
    if (!made) throw new Error(`no active signing key of ${alg}`);
    return made;
  }

  /**
   * Every published key with its private part, active keys first (each algorithm's active key, then the retired
   * ones still published): the keystore of a signer that takes JWKs. Each algorithm has its active key first.
   */
  async privateSet(): Promise<SigningKey[]> {
    await this.ensureLoaded();
    if (this.missingOrDue()) await this.ensureActive();
    const now = this.clock.now();
    return this.keys.filter((k) => this.isPublished(k, now));
  }

  /** The key a token names; an unknown kid reloads once (another instance may have rotated). */
  async find(kid: string): Promise<SigningKey | undefined> {
    await this.ensureLoaded();
    const known = this.keys.find((k) => k.kid === kid);
    if (known || this.clock.now() - this.lastReload < UNKNOWN_KID_RELOAD_MS) return known;
    await this.reload();
    return this.keys.find((k) => k.kid === kid);
  }

  /** The published public keys: the active one and the retired ones still within their retention. */
  async publicSet(): Promise<{ keys: PublicJwk[] }> {
    await this.ensureLoaded();
    if (this.algs.some((alg) => !this.activeOf(alg))) await this.ensureActive();
    const now = this.clock.now();
    return { keys: this.keys.filter((k) => this.isPublished(k, now)).map((k) => k.publicJwk) };
  }

  /**
   * Retires the active keys and makes new ones (CLI `jwks:rotate`, or the rotation interval). Returns the kid of
   * the configured algorithm's new key.
   */
  async rotate(): Promise<string> {
    const kid = await this.repo.locked(async (tx) => {
      const [primary, ...companions] = this.algs;
      const made = await this.replaceActive(tx, primary, 'manual');
      for (const alg of companions) await this.replaceActive(tx, alg, 'manual');
      await this.repo.retireActiveExcept(tx, new Date(this.clock.now()), this.algs);
      return made;
    });
    await this.changed();
    return kid;
  }

  /** Reads the key set from PostgreSQL, drops keys past their retention, keeps the decoded keys. */
  async reload(): Promise<void> {
    const rows = await this.repo.list();
    const now = this.clock.now();
    const keys = await Promise.all(rows.map((row) => this.decode(row)));
    this.keys = keys.filter((k) => this.isPublished(k, now));
    this.decoded = new Map(this.keys.map((k) => [k.kid, k]));
    this.lastReload = now;
    const fingerprint = this.keys.map((k) => `${k.kid}:${k.retiredAt ?? ''}`).join(',');
    if (fingerprint !== this.fingerprint) {
      this.fingerprint = fingerprint;
      this.changes++;
    }
  }

  /**
   * The periodic step (every `keyRefreshSec`, API process): delete keys past retention, rotate when due,
   * reload. Also run by tests instead of waiting.
   */
  async refresh(): Promise<void> {
    await this.repo.deleteRetiredBefore(new Date(this.clock.now() - this.retentionMs));
    await this.reload();
    if (this.missingOrDue()) await this.ensureActive();
  }

  /** Starts the refresh interval and the rotation notices (API process). */
  async watch(): Promise<void> {
    this.timer ??= setInterval(() => {
      this.refresh().catch((e) => this.onError(`JWT key refresh failed: ${describe(e)}`));
    }, this.config.keyRefreshSec * 1000);
    this.timer.unref();
    if (this.events && !this.unsubscribe) {
      try {
        this.unsubscribe = await this.events.subscribe(() => {
          this.reload().catch((e) => this.onError(`JWT key reload failed: ${describe(e)}`));
        });
      } catch (e) {
        this.onError(
          `JWT key notices unavailable (reloading every ${this.config.keyRefreshSec} s): ${(e as Error).message}`,
        );
      }
    }
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.unsubscribe?.();
    this.unsubscribe = null;
  }

  private ensureLoaded(): Promise<void> {
    this.loaded ??= this.reload().catch((error) => {
      this.loaded = null; // PostgreSQL down at the first request: try again next time
      throw error;
    });
    return this.loaded;
  }

  /**
   * Creates each algorithm's first key or replaces a due one, re-checked under the lock (another instance may have).
   * A new key of the configured algorithm retires the active keys of algorithms no longer in use (`jwt.alg` changed).
   */
  private ensureActive(): Promise<void> {
    this.ensuring ??= (async () => {
      const made = await this.repo.locked(async (tx) => {
        const rows = await this.repo.list(tx);
        let changed = false;
        for (const alg of this.algs) {
          const active = rows.find((r) => r.retiredAt === null && r.alg === alg);
          if (active && !this.isDue(active.createdAt.getTime())) continue;
          await this.replaceActive(tx, alg, active ? 'due' : 'first');
          if (alg === this.config.alg) await this.repo.retireActiveExcept(tx, new Date(this.clock.now()), this.algs);
          changed = true;
        }
        return changed;
      });
      if (made) await this.changed();
      else await this.reload();
    })().finally(() => {
      this.ensuring = null;
    });
    return this.ensuring;
  }

  /** The algorithm's new active key, its old one retired, and the `signing_key.rotated` event: one transaction. */
  private async replaceActive(tx: Sql, alg: SigningAlg, reason: 'manual' | 'due' | 'first'): Promise<string> {
    const now = new Date(this.clock.now());
    const id = newId();
    const { publicKey, privateKey } = await generateKeyPair(alg, { extractable: true });
    const publicJwk = { ...(await exportJWK(publicKey)), kid: id, alg, use: 'sig' };
    const privateJwk = JSON.stringify(await exportJWK(privateKey));
    await this.repo.retireActive(tx, now, alg);
    await this.repo.insert(tx, {
      id,
      alg,
      publicKey: JSON.stringify(publicJwk),
      privateKey: this.sealer.seal(privateJwk, id),
      createdAt: now,
    });
    await this.audit.record(tx, {
      type: 'signing_key.rotated',
      source: SYSTEM_SOURCE,
      target: { type: 'signing_key', id },
      details: { alg, reason },
    });
    return id;
  }

  private async changed(): Promise<void> {
    await this.reload();
    await this.events?.publish().catch((e) => this.onError(`JWT key notice not sent: ${(e as Error).message}`));
  }

  private activeOf(alg: SigningAlg): SigningKey | undefined {
    return this.keys.find((k) => k.retiredAt === null && k.alg === alg);
  }

  /** An algorithm in use without an active key, or whose active key is due for rotation. */
  private missingOrDue(): boolean {
    return this.algs.some((alg) => {
      const active = this.activeOf(alg);
      return !active || this.isDue(active.createdAt);
    });
  }

  private isDue(createdAt: number): boolean {
    const rotation = this.config.keyRotationSec * 1000;
    return rotation > 0 && this.clock.now() - createdAt >= rotation;
  }

  private isPublished(key: SigningKey, now: number): boolean {
    return key.retiredAt === null || now < key.retiredAt + this.retentionMs;
  }

  private async decode(row: KeyRow): Promise<SigningKey> {
    const known = this.decoded.get(row.id);
    const retiredAt = row.retiredAt ? row.retiredAt.getTime() : null;
    if (known) return { ...known, retiredAt };
    const alg = row.alg as SigningAlg;
    const publicJwk = JSON.parse(row.publicKey) as PublicJwk;
    const opened = this.sealer.open(row.privateKey, row.id);
    // The answer is STORED_SECRET_UNREADABLE (not a bare 500), and the log line says how to fix it.
    if (opened === null)
      failLogged('STORED_SECRET_UNREADABLE', unreadableSealed(`the private key of signing key ${row.id}`));
    const privateJwk = JSON.parse(opened) as JWK;
    return {
      kid: row.id,
      alg,
      publicJwk,
      privateJwk: { ...privateJwk, kid: row.id, alg, use: 'sig' },
      privateKey: (await importJWK(privateJwk, alg)) as CryptoKey,
      publicKey: (await importJWK(publicJwk, alg)) as CryptoKey,
      createdAt: row.createdAt.getTime(),
      retiredAt,
    };
  }
}

/** An error for the log: an unreadable key's own line (what to do), else the message. */
const describe = (error: unknown): string => (error as { logMessage?: string }).logMessage ?? (error as Error).message;
