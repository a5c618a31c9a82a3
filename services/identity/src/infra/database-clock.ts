import { performance } from 'node:perf_hooks';
import type { PoolClient } from 'pg';
import type { Clock } from '../shared/clock';
import { withTimeout } from '../shared/with-timeout';

/** Readings per sync, back to back on one connection: the one with the shortest round trip is used. */
const SAMPLES = 3;
/** A sync whose best round trip is longer than this is not trusted once the clock has a reading. */
export const MAX_ROUND_TRIP_MS = 500;
/** An offset larger than this is logged as a warning (the instance's own clock is badly off). */
export const WARN_OFFSET_MS = 5000;
/** The warning is repeated at most this often while the offset stays large. */
const WARN_EVERY_MS = 60 * 60 * 1000;
/** A sync gives up on a connection or a reading after this long (a database that hangs). */
const SYNC_TIMEOUT_MS = 5000;
const QUERY = 'SELECT (extract(epoch FROM clock_timestamp()) * 1000)::float8 AS ms';

export interface ClockLog {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

export interface DatabaseClockOptions {
  /** A connection of the pool (released by the clock). */
  connect: () => Promise<PoolClient>;
  /** Time between syncs. */
  intervalMs: number;
  log: ClockLog;
}

/** One reading: the database's time at the monotonic instant `at`, known within ± `uncertaintyMs`. */
interface Reading {
  dbMs: number;
  at: number;
  /** The database's clock minus this machine's wall clock. */
  offsetMs: number;
  roundTripMs: number;
}

/**
 * The database's clock, read without a query per call. Every instance of the service decides expiries by this
 * clock, so instances whose own clocks disagree still agree on when a link, a ban or a session ends (see
 * docs/operations.md, Clocks).
 *
 * At start and every `intervalMs`, a sync reads PostgreSQL's `clock_timestamp()` a few times on one connection
 * and keeps the reading with the shortest round trip; the database's time is taken to be that reading at the
 * midpoint of the round trip, so it is known within half the round trip. Between syncs the clock advances with
 * the monotonic clock from that reading: a step of the machine's wall clock (NTP, an operator) changes nothing.
 * While the database cannot be read, the last reading goes on; before the first one, the machine's clock.
 */
export class DatabaseClock implements Clock {
  private reading: Reading | null = null;
  private lastSuccessAt: number | null = null;
  private syncing: Promise<void> | null = null;
  private timer: NodeJS.Timeout | null = null;
  private failing = false;
  private warnedAt: number | null = null;

  constructor(private readonly options: DatabaseClockOptions) {}

  /** Epoch milliseconds by the database's clock (a bound function: callers pass `clock.now` around). */
  readonly now = (): number => {
    const r = this.reading;
    return r ? Math.floor(r.dbMs + (performance.now() - r.at)) : Date.now();
  };

  /** The database's clock minus this machine's wall clock at the last sync (0 before the first one). */
  get offsetMs(): number {
    return this.reading?.offsetMs ?? 0;
  }

  /** Milliseconds since the last successful sync; null before the first one. */
  get syncAgeMs(): number | null {
    return this.lastSuccessAt === null ? null : performance.now() - this.lastSuccessAt;
  }

  /** The first sync (awaited), then one every `intervalMs`. A first sync that fails leaves the machine's clock. */
  async start(): Promise<void> {
    await this.sync();
    this.timer ??= setInterval(() => void this.sync(), this.options.intervalMs);
    this.timer.unref();
  }

  /** No more syncs; waits for one under way (so it does not meet a closed pool). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.syncing;
  }

  /** Reads the database's clock now (one sync at a time: a call during a sync waits for that one). */
  sync(): Promise<void> {
    this.syncing ??= this.measure()
      .then(
        (reading) => this.accept(reading),
        (error) => this.failed(error),
      )
      .finally(() => {
        this.syncing = null;
      });
    return this.syncing;
  }

  private async measure(): Promise<Reading> {
    const connecting = this.options.connect();
    const client = await withTimeout(connecting, SYNC_TIMEOUT_MS, 'no database connection').catch((error) => {
      connecting.then(
        (late) => late.release(),
        () => {},
      ); // a connection that comes too late goes back to the pool
      throw error;
    });
    let broken: Error | undefined;
    try {
      let best: Reading | null = null;
      for (let i = 0; i < SAMPLES; i++) {
        const sent = performance.now();
        const wallSent = Date.now();
        const result = await withTimeout(client.query<{ ms: number }>(QUERY), SYNC_TIMEOUT_MS, 'no clock reading');
        const received = performance.now();
        const wallReceived = Date.now();
        const dbMs = Number(result.rows[0]?.ms);
        if (!Number.isFinite(dbMs)) throw new Error('unreadable clock reading');
        const roundTripMs = received - sent;
        if (!best || roundTripMs < best.roundTripMs)
          best = { dbMs, at: (sent + received) / 2, offsetMs: dbMs - (wallSent + wallReceived) / 2, roundTripMs };
      }
      return best!;
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      // A connection that timed out may still have a query on it: it is closed rather than reused.
      client.release(broken);
    }
  }

  private accept(reading: Reading): void {
    const { log } = this.options;
    if (this.reading && reading.roundTripMs > MAX_ROUND_TRIP_MS) {
      log.warn(
        { roundTripMs: Math.round(reading.roundTripMs), limitMs: MAX_ROUND_TRIP_MS },
        'clock: database reading too slow to trust; keeping the last one',
      );
      return;
    }
    const first = this.reading === null;
    this.reading = reading;
    this.lastSuccessAt = performance.now();
    const fields = { offsetMs: Math.round(reading.offsetMs), roundTripMs: round(reading.roundTripMs) };
    if (first) log.info(fields, "clock: following the database's clock");
    else if (this.failing) log.info(fields, "clock: reading the database's clock again");
    this.failing = false;
    if (Math.abs(reading.offsetMs) <= WARN_OFFSET_MS) {
      this.warnedAt = null;
      return;
    }
    const at = performance.now();
    if (this.warnedAt !== null && at - this.warnedAt < WARN_EVERY_MS) return;
    this.warnedAt = at;
    log.warn(
      { ...fields, warnAboveMs: WARN_OFFSET_MS },
      "clock: this machine's clock is far from the database's (expiries follow the database; check NTP)",
    );
  }

  private failed(error: unknown): void {
    if (this.failing) return;
    this.failing = true;
    this.options.log.warn(
      { error: (error as Error).message, offsetMs: Math.round(this.offsetMs) },
      this.reading
        ? "clock: cannot read the database's clock; going on from the last reading"
        : "clock: cannot read the database's clock; using this machine's until it can",
    );
  }
}

const round = (ms: number) => Math.round(ms * 100) / 100;
