/**
 * The time every expiry is decided by (sessions, links, bans, invitations, OAuth state, API keys, signing keys).
 * The service's own processes follow the database's clock (infra/database-clock.ts); tests pass a clock they move
 * by hand. Epoch milliseconds, like `Date.now()`.
 */
export interface Clock {
  now(): number;
}

/**
 * How far the clock of a party we do not run (an OAuth provider that issues id tokens, a service that verifies our
 * JWTs) may differ from ours. Our own instances need no such margin: they share the database's clock.
 */
export const FOREIGN_CLOCK_SKEW_SEC = 60;
