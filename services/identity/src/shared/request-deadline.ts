import { AsyncLocalStorage } from 'node:async_hooks';
import { performance } from 'node:perf_hooks';

/**
 * The instant by which the request being served must be answered (docs/operations.md, "Request deadline"), carried
 * with the work the request starts so that the database layer can bound what it waits for by it: the wait for a
 * pool connection and each statement's answer end when the request's time is up, whatever their own bounds.
 * Work outside a request (the outbox relay, the clock, sweeps) has no deadline and keeps those bounds alone.
 *
 * Instants are `performance.now()` milliseconds: monotonic, so a step of the wall clock changes no deadline.
 *
 * The store travels with promises through AsyncLocalStorage. On Node.js 22 that costs a JavaScript hook on every
 * promise unless the process runs with `--experimental-async-context-frame` (the default from Node.js 24), which
 * the service's start commands pass: measured on a route of twenty awaits, +40 % CPU per request without the
 * flag, +3 % with it (docs/decisions/0012-request-deadline.md).
 */
const storage = new AsyncLocalStorage<number>();

/** Runs `work` (and everything it starts) under the deadline `at`. */
export function withDeadline<T>(at: number, work: () => T): T {
  return storage.run(at, work);
}

/** The current request's deadline; undefined outside a request. */
export function currentDeadline(): number | undefined {
  return storage.getStore();
}

/** Milliseconds left before the current request's deadline (negative once past); Infinity outside a request. */
export function remainingMs(): number {
  const at = storage.getStore();
  return at === undefined ? Number.POSITIVE_INFINITY : at - performance.now();
}

/**
 * Whether AsyncLocalStorage runs on V8's context frames (the cheap way) rather than on a hook per promise: the
 * default from Node.js 24, behind `--experimental-async-context-frame` on Node.js 22.
 */
export function contextFramesOn(): boolean {
  const flags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)];
  if (flags.includes('--no-async-context-frame')) return false;
  return Number(process.versions.node.split('.')[0]) >= 24 || flags.includes('--experimental-async-context-frame');
}
