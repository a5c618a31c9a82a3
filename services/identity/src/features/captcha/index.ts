import type { FastifyInstance } from 'fastify';
import type { CaptchaConfig } from '../../config';
import { CaptchaVerifier } from './captcha.service';

export type { CaptchaVerifier } from './captcha.service';

/** better-auth's captcha plugin header. */
export const CAPTCHA_HEADER = 'x-captcha-response';

/**
 * Installs the bot check on the POST routes that declare it (`config.policy.botCheck`), or on the operator's
 * `captcha.endpoints` (paths relative to the base path) when those are set. It runs in
 * preValidation, after the origin check and rate limit and before the body is validated or any handler runs,
 * so a refused request has no side effect (no user, no session, no mail). The route pattern is matched, so
 * path aliases (trailing or double slashes) reach the check too.
 */
export function registerCaptcha(api: FastifyInstance, verifier: CaptchaVerifier, basePath: string): void {
  api.addHook('preValidation', async (request) => {
    const route = request.routeOptions.url;
    if (!route || request.method !== 'POST') return;
    if (!verifier.guards(route.slice(basePath.length), request.routeOptions.config.policy)) return;
    const header = request.headers[CAPTCHA_HEADER];
    await verifier.require(typeof header === 'string' ? header : undefined, request.ip);
  });
}

/** The bot check when `captcha.provider` is set, else null. */
export function createCaptcha(config: CaptchaConfig, warn: (message: string) => void): CaptchaVerifier | null {
  return config.provider ? new CaptchaVerifier(config.provider, config, warn) : null;
}
