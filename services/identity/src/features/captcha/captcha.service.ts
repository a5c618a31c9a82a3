import type { CaptchaConfig } from '../../config';
import { ApiError } from '../../errors';
import type { RoutePolicy } from '../../http/route-policy';
import { type CaptchaProvider, passed, SITE_VERIFY_URLS, type SiteVerifyAnswer, siteVerifyRequest } from './providers';

export type CaptchaOutcome = 'passed' | 'missing' | 'failed' | 'unavailable';

/**
 * Bot checks: the token from the client is verified by a server-side call to the provider.
 * missing → 400 MISSING_CAPTCHA_RESPONSE; refused → 403 CAPTCHA_VERIFICATION_FAILED; provider unreachable,
 * 5xx, unreadable or slower than `timeoutMs` → 503 CAPTCHA_UNAVAILABLE (fail closed) unless `failOpen`.
 */
export class CaptchaVerifier {
  private readonly url: string;
  /** The operator's `captcha.endpoints` (paths relative to the base path), which replace the routes' own; else null. */
  private readonly endpoints: ReadonlySet<string> | null;

  constructor(
    private readonly provider: CaptchaProvider,
    private readonly config: CaptchaConfig,
    private readonly onUnavailable: (why: string) => void = () => {},
  ) {
    this.url = config.siteVerifyUrl ?? SITE_VERIFY_URLS[provider];
    this.endpoints = config.endpoints ? new Set(config.endpoints) : null;
  }

  /**
   * Whether the route at `path` gets the bot check: it is one of the operator's `captcha.endpoints` when they are
   * set, else it declares the check itself (`config.policy.botCheck`).
   */
  guards(path: string, policy: RoutePolicy | undefined): boolean {
    return this.endpoints ? this.endpoints.has(path) : policy?.botCheck === true;
  }

  async check(response: string | undefined, remoteIp: string | undefined): Promise<CaptchaOutcome> {
    if (!response) return 'missing';
    let answer: SiteVerifyAnswer;
    try {
      const res = await fetch(this.url, {
        ...siteVerifyRequest(this.provider, this.config, { response, remoteIp }),
        signal: AbortSignal.timeout(this.config.timeoutMs),
      });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      answer = (await res.json()) as SiteVerifyAnswer;
      if (answer === null || typeof answer !== 'object') throw new Error('not a JSON object');
    } catch (error) {
      this.onUnavailable(`${this.provider} verify failed: ${(error as Error).message}`);
      return 'unavailable';
    }
    return passed(this.provider, answer, this.config.minScore) ? 'passed' : 'failed';
  }

  /** Throws the catalogue error for anything but a pass (or an unavailable provider with failOpen). */
  async require(response: string | undefined, remoteIp: string | undefined): Promise<void> {
    const outcome = await this.check(response, remoteIp);
    if (outcome === 'missing') throw new ApiError('MISSING_CAPTCHA_RESPONSE');
    if (outcome === 'failed') throw new ApiError('CAPTCHA_VERIFICATION_FAILED');
    if (outcome === 'unavailable' && !this.config.failOpen) throw new ApiError('CAPTCHA_UNAVAILABLE');
  }
}
