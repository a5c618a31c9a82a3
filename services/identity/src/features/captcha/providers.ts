import type { CaptchaConfig } from '../../config';

export type CaptchaProvider = NonNullable<CaptchaConfig['provider']>;

/** The providers' real verify endpoints (overridable: `captcha.siteVerifyUrl`). */
export const SITE_VERIFY_URLS: Record<CaptchaProvider, string> = {
  'cloudflare-turnstile': 'https://challenges.cloudflare.com/turnstile/v0/siteverify',
  'google-recaptcha': 'https://www.google.com/recaptcha/api/siteverify',
  hcaptcha: 'https://api.hcaptcha.com/siteverify',
};

export interface VerifyInput {
  response: string;
  remoteIp: string | undefined;
}

/** What a provider answers (the fields we read); `score` only from reCAPTCHA v3 and hCaptcha Enterprise. */
export interface SiteVerifyAnswer {
  success?: unknown;
  score?: unknown;
  'error-codes'?: unknown;
}

/**
 * The request body each provider documents: all take `secret`, `response` and `remoteip`; Turnstile's
 * siteverify takes JSON (it also accepts a form), reCAPTCHA and hCaptcha a form, and hCaptcha also `sitekey`
 * (it then refuses a token issued for another site key).
 */
export function siteVerifyRequest(provider: CaptchaProvider, config: CaptchaConfig, input: VerifyInput): RequestInit {
  const fields: Record<string, string> = { secret: config.secretKey ?? '', response: input.response };
  if (input.remoteIp) fields.remoteip = input.remoteIp;
  if (provider === 'hcaptcha' && config.siteKey) fields.sitekey = config.siteKey;
  if (provider === 'cloudflare-turnstile')
    return { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(fields) };
  return {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  };
}

/**
 * Passed or not. reCAPTCHA v3 answers a score (1.0 very likely human): below `minScore` fails. hCaptcha's
 * Enterprise score runs the other way (risk) and is not used; Turnstile has none.
 */
export function passed(provider: CaptchaProvider, answer: SiteVerifyAnswer, minScore: number): boolean {
  if (answer.success !== true) return false;
  if (provider === 'google-recaptcha' && typeof answer.score === 'number') return answer.score >= minScore;
  return true;
}
