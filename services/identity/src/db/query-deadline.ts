import { Client, type ClientConfig } from 'pg';
import { currentDeadline } from '../shared/request-deadline';

/**
 * A bound on how long a pooled connection may wait for PostgreSQL's answer, kept by one sweep per data source
 * rather than a timer per query.
 *
 * PostgreSQL cancels a statement that runs past `statement_timeout` by itself. What it cannot do is answer when it
 * is hung (stopped with its sockets open, a frozen host): the query would wait as long as the outage. pg's own
 * `query_timeout` bounds that, but arms and clears a timer and two closures for every query, which on the hot
 * path cost about a tenth of the throughput and a third more memory (docs/performance.md). Here each connection
 * only notes when its query in flight is due (one clock read per query, renewed at each answer, cleared when the
 * connection is idle again), and a sweep every `sweepMs` closes any connection whose answer is overdue. Closing
 * the socket fails its query with `ETIMEDOUT` (a 503 by db/unavailable.ts) and the pool drops the connection, as
 * after a server crash; the sweep runs only while connections are open.
 *
 * An answer is due `limitMs` after it was asked for, or sooner when the query was sent for a request whose
 * deadline (shared/request-deadline.ts) comes first, less `marginMs` to write the 503: a request never waits on the
 * database past its own deadline, and a transaction cut there is rolled back by PostgreSQL, never half-done.
 */
export interface QueryDeadline {
  /** The connection class for the pool (pg-pool's documented `Client` option). */
  readonly Client: typeof Client;
  /** How many connections are waiting for an answer right now. */
  busy(): number;
}

export interface QueryDeadlineOptions {
  limitMs: number;
  sweepMs: number;
  /** Taken off a request's deadline: the time to answer 503 once the database has not answered. */
  marginMs?: number;
  now?: () => number;
}

export function createQueryDeadline(options: QueryDeadlineOptions): QueryDeadline {
  const now = options.now ?? (() => performance.now());
  const marginMs = options.marginMs ?? 0;
  const open = new Set<WatchedClient>();
  let sweeper: NodeJS.Timeout | undefined;

  const sweep = () => {
    const at = now();
    for (const client of open) if (client.dueAt !== 0 && client.dueAt < at) client.abandon();
  };

  const track = (client: WatchedClient) => {
    open.add(client);
    if (!sweeper) {
      sweeper = setInterval(sweep, options.sweepMs);
      sweeper.unref();
    }
  };
  const untrack = (client: WatchedClient) => {
    open.delete(client);
    if (open.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = undefined;
    }
  };

  class WatchedClient extends Client {
    /** When the answer in flight is overdue (0: idle). */
    dueAt = 0;
    /** The deadline of the request the latest query was sent for (Infinity: none). */
    private requestDueAt = Number.POSITIVE_INFINITY;
    /** Which bound `dueAt` is, for the error. */
    private bound: 'query' | 'request' = 'query';

    constructor(config?: string | ClientConfig) {
      super(config);
      // PostgreSQL ending the connection (restart, failover, pg_terminate_backend) makes pg emit 'error' on it
      // when no query of it is in flight, and once more when the socket closes. The pool listens only while the
      // connection is idle in it; checked out (handed to a waiting caller, between a transaction's statements,
      // the clock's readings) nobody would, and an unheard 'error' ends the process. So the connection always
      // hears it itself: pg has already marked it unusable, its next query fails as unavailable (a 503), and the
      // pool drops it when it comes back.
      this.on('error', ignoreConnectionError);
      // pg emits 'drain' when the last queued query has its answer and the connection is ready again.
      this.on('drain', () => {
        this.dueAt = 0;
      });
      this.once('end', () => untrack(this));
      track(this);
    }

    // biome-ignore lint/suspicious/noExplicitAny: pg's connect() takes a callback or answers a promise; passed through.
    override connect(...args: any[]): any {
      // biome-ignore lint/suspicious/noExplicitAny: see above.
      const connecting = (super.connect as (...a: any[]) => any)(...args);
      // Each answer ends with ReadyForQuery. pg handles it first (its listener is attached by connect() above):
      // the query's callback runs there, and a saturated pool hands the connection straight to a waiting query,
      // which pg sends at once, so 'drain' never comes between them. Hence after pg's handler: a query in flight
      // now (not ready) is timed from now; none, and the connection is idle.
      this.connection.on('readyForQuery', () => {
        if ((this as unknown as { readyForQuery: boolean }).readyForQuery) this.dueAt = 0;
        else this.due();
      });
      return connecting;
    }

    // biome-ignore lint/suspicious/noExplicitAny: pg's query() is heavily overloaded; this only passes it through.
    override query(...args: any[]): any {
      const deadline = currentDeadline();
      this.requestDueAt = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - marginMs;
      if (this.dueAt === 0 || this.requestDueAt < this.dueAt) this.due();
      // biome-ignore lint/suspicious/noExplicitAny: see above.
      return (super.query as (...a: any[]) => any)(...args);
    }

    /** The answer asked for now is due after `limitMs`, or at the request's deadline if that comes first. */
    private due(): void {
      const byQuery = now() + options.limitMs;
      this.bound = this.requestDueAt < byQuery ? 'request' : 'query';
      this.dueAt = Math.min(byQuery, this.requestDueAt);
    }

    /** Closes the socket: the query in flight fails with ETIMEDOUT, and the pool drops this connection. */
    abandon(): void {
      this.dueAt = 0;
      untrack(this);
      const within = this.bound === 'request' ? "the request's deadline" : `${options.limitMs} ms`;
      const error = Object.assign(new Error(`PostgreSQL did not answer within ${within}; connection closed`), {
        code: 'ETIMEDOUT',
      });
      // `connection.stream` is the socket pg writes to; pg exposes no other way to drop a connection whose
      // server does not answer (end() sends a goodbye and waits for a reply that would not come).
      (this as unknown as { connection: { stream: { destroy(error?: Error): void } } }).connection.stream.destroy(
        error,
      );
    }
  }

  return {
    Client: WatchedClient,
    busy: () => [...open].filter((c) => c.dueAt !== 0).length,
  };
}

/** See WatchedClient's constructor: the failure reaches the connection's user through its next query. */
function ignoreConnectionError(): void {}
