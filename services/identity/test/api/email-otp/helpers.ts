import { CookieJar, post } from '../../setup/fixtures';
import type { MailStack } from '../../setup/mail-stack';

export const ON = { EMAIL_OTP_ENABLED: 'true' };

/** The six-digit codes mailed to `email` so far, oldest first (from the subjects). */
export const codesTo = (t: MailStack, email: string) =>
  t.sink.messages.filter((m) => m.to.includes(email)).flatMap((m) => /\b(\d{6})\b/.exec(m.subject)?.[1] ?? []);

/** Asks for a code of `type` and answers it from the mail that arrives. */
export async function mailedCode(t: MailStack, email: string, type = 'sign-in', headers: Record<string, string> = {}) {
  const before = codesTo(t, email).length;
  const res = await post(t.app, '/email-otp/send-verification-otp', { email, type }, { headers });
  expect([res.statusCode, res.json()]).toEqual([200, { success: true }]);
  await t.sink.waitFor(() => codesTo(t, email).length > before, 10_000);
  return codesTo(t, email)[before];
}

export const signInWith = (t: MailStack, email: string, otp: string, jar = new CookieJar()) =>
  post(t.app, '/sign-in/email-otp', { email, otp }, { jar });

export const checkCode = (t: MailStack, email: string, type: string, otp: string) =>
  post(t.app, '/email-otp/check-verification-otp', { email, type, otp });

/** Another six digits than `code` (the next one, wrapping). */
export const wrong = (code: string, by = 1) => String((Number(code) + by) % 1_000_000).padStart(6, '0');

export const events = (t: MailStack, type: string, userId: string) =>
  t.ctx.sql.query<{ details: Record<string, unknown> }>(
    'SELECT details FROM audit_events WHERE type = $1 AND target_id = $2 ORDER BY seq',
    [type, userId],
  );
