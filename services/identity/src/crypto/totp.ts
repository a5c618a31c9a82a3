import { generate, generateSecret, generateURI } from 'otplib';
import { safeEqual } from './safe-equal';

/** RFC 6238 as authenticator apps expect it by default: SHA-1, 6 digits, 30-second steps. */
export const TOTP_PERIOD_SEC = 30;
export const TOTP_DIGITS = 6;
/** Steps accepted either side of the current one (clock drift between the phone and the service). */
const DRIFT_STEPS = 1;

const CODE = /^\d{6}$/;

/** A new TOTP secret: 20 random bytes (RFC 4226's recommended length) in base32, as the otpauth URI carries it. */
export function newTotpSecret(): string {
  return generateSecret({ length: 20 });
}

/** The `otpauth://totp/…` URI an authenticator app scans (a QR code of it) or takes as a link. */
export function totpUri(secret: string, issuer: string, account: string): string {
  return generateURI({
    strategy: 'totp',
    issuer,
    label: account,
    secret,
    algorithm: 'sha1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SEC,
  });
}

/** The time step (RFC 6238's T) of a moment. */
export const timeStepOf = (nowMs: number): number => Math.floor(nowMs / 1000 / TOTP_PERIOD_SEC);

/**
 * The time step `code` belongs to, among the current one and one either side, or null. The caller accepts a step
 * once (the last accepted step is stored), so a code seen once is never accepted again.
 */
export async function matchTotp(secret: string, code: string, nowMs: number): Promise<number | null> {
  if (!CODE.test(code)) return null;
  const current = timeStepOf(nowMs);
  let matched: number | null = null;
  // Every candidate is computed and compared in constant time, so timing tells nothing about which one matched.
  for (let offset = -DRIFT_STEPS; offset <= DRIFT_STEPS; offset++) {
    const step = current + offset;
    const expected = await totpAt(secret, step);
    if (safeEqual(expected, code) && matched === null) matched = step;
  }
  return matched;
}

/** The code of `step` (tests compute codes the same way an authenticator app does). */
export function totpAt(secret: string, step: number): Promise<string> {
  return generate({
    strategy: 'totp',
    secret,
    algorithm: 'sha1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SEC,
    epoch: step * TOTP_PERIOD_SEC,
  });
}
