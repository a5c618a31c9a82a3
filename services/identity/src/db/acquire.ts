import { performance } from 'node:perf_hooks';
import type { Pool, PoolClient } from 'pg';
import { currentDeadline } from '../shared/request-deadline';

/** A connection taken from the pool, and how to give it back (`broken`: drop it instead of reusing it). */
export interface Lease {
  client: PoolClient;
  release(broken?: Error): void;
}

export interface Acquirer {
  acquire(): Promise<Lease>;
  /** Callers waiting for a connection now. */
  waiting(): number;
}

export interface AcquireOptions {
  /** The most connections in use at once: the pool's size. */
  size: number;
  /** The longest wait for a connection outside a request (DB_CONNECT_TIMEOUT_MS). */
  waitMs: number;
  /** A request's wait ends this long before its deadline, to answer 503 in time. */
  marginMs: number;
}

interface Waiter {
  /** Served in the order of this instant: the earliest deadline first. */
  dueAt: number;
  grant(): void;
  timer: NodeJS.Timeout;
}

/**
 * Hands out the pool's connections to the callers that need them soonest. When every connection is in use, a
 * caller waits for one at most until its request's deadline less `marginMs` (shared/request-deadline.ts), or
 * `waitMs` outside a request, and the connection that comes free goes to the caller whose wait ends first (earliest
 * deadline first), not to the one that asked first. Under a slow database this keeps requests that have already
 * done most of their work (a sign-in that hashed the password and now writes its session) from waiting behind
 * requests that have just started, so the load it cannot serve in time fails, not the load it could.
 *
 * pg-pool's own queue stays empty: at most `size` callers hold a permit, and the pool has that many connections.
 * A wait that ends unserved fails with an outage error (a 503, db/unavailable.ts).
 */
export function createAcquirer(pool: Pool, options: AcquireOptions): Acquirer {
  let inUse = 0;
  const queue: Waiter[] = [];

  const give = () => {
    const next = queue.shift();
    if (next) {
      clearTimeout(next.timer);
      next.grant();
    } else inUse--;
  };

  /** Waits for a permit until `dueAt`; a permit is one connection of the pool to take. */
  const permit = (dueAt: number): Promise<void> => {
    if (inUse < options.size) {
      inUse++;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const waiter: Waiter = {
        dueAt,
        grant: resolve,
        timer: setTimeout(
          () => {
            queue.splice(queue.indexOf(waiter), 1);
            reject(noConnection(dueAt !== Number.POSITIVE_INFINITY));
          },
          Math.max(0, dueAt - performance.now()),
        ),
      };
      let at = queue.length;
      while (at > 0 && queue[at - 1].dueAt > dueAt) at--;
      queue.splice(at, 0, waiter);
    });
  };

  return {
    waiting: () => queue.length,
    async acquire() {
      const now = performance.now();
      const deadline = currentDeadline();
      const byRequest = deadline === undefined ? Number.POSITIVE_INFINITY : deadline - options.marginMs;
      if (byRequest <= now) throw noConnection(true);
      const dueAt = Math.min(byRequest, now + options.waitMs);
      await permit(dueAt);
      let client: PoolClient;
      try {
        client = await connect(pool, byRequest);
      } catch (error) {
        give();
        throw error;
      }
      let released = false;
      return {
        client,
        release(broken?: Error) {
          if (released) return;
          released = true;
          client.release(broken);
          give();
        },
      };
    },
  };
}

/**
 * The pool's connection for a permit: an idle one at once, else a new one, opened within the pool's own bound
 * (DB_CONNECT_TIMEOUT_MS) and the request's deadline. One that arrives after the request gave up goes back to the
 * pool. (A connection taken outside the permits, the clock's, may make this wait for a moment too.)
 */
async function connect(pool: Pool, byRequest: number): Promise<PoolClient> {
  const connecting = pool.connect();
  if (byRequest === Number.POSITIVE_INFINITY) return connecting;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(noConnection(true)), Math.max(0, byRequest - performance.now()));
  });
  try {
    return await Promise.race([connecting, late]);
  } catch (error) {
    connecting.then(
      (client) => client.release(),
      () => {},
    );
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/** The outage answer (503, db/unavailable.ts) of a wait for a connection that ended unserved. */
function noConnection(byDeadline: boolean): Error {
  const message = byDeadline
    ? "no PostgreSQL connection within the request's deadline"
    : 'timeout exceeded when trying to connect';
  return Object.assign(new Error(message), { code: 'ETIMEDOUT' });
}
