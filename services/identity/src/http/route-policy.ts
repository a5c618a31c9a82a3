import type { FastifyInstance, RouteOptions } from 'fastify';

/** A per-address rate limit: at most `max` requests in a window of `windowSec` seconds. */
export interface RateLimitRule {
  windowSec: number;
  max: number;
}

/**
 * The named rules routes declare (docs/security.md, rate limits). A route whose limit fits none states its own
 * `{windowSec, max}`.
 */
export const RATE_LIMIT_RULES = {
  /** Each request checks or changes a credential: a password, a one-time code, a reset token, a passkey. */
  credential: { windowSec: 60, max: 10 },
  /** Each request may send a mail to an inbox (docs/security.md, mail flooding). */
  mail: { windowSec: 60, max: 5 },
  /** Each request stores short-lived state for a sign-in to come: an OAuth state, a passkey challenge. */
  challenge: { windowSec: 60, max: 30 },
} as const satisfies Record<string, RateLimitRule>;

export type RateLimitRuleName = keyof typeof RATE_LIMIT_RULES;

/**
 * What a route states about itself in its options (`config: { policy }`), read where the policy is enforced.
 * An operator's settings still win where docs/configuration.md says so ("Route policies").
 */
export interface RoutePolicy {
  /**
   * Whether a user's API key may stand for a session on this route (docs/api-keys.md). Default `allowed`; only
   * routes that take a session read it.
   */
  apiKeys?: 'refused' | 'allowed';
  /** The route's own per-address limit, on top of the global one; `rateLimit.rules` for its path replaces it. */
  rateLimit?: RateLimitRuleName | RateLimitRule;
  /** The bot check on POST requests (docs/social-sign-in.md, Bot checks); `captcha.endpoints`, when set, replaces it. */
  botCheck?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route's declared policies (src/http/route-policy.ts). */
    policy?: RoutePolicy;
  }
  interface FastifyInstance {
    /** Every route under the base path with the policies it declares (registered before the routes). */
    routePolicies: RoutePolicies;
  }
}

/** The rule a policy names or states, if any. */
export function rateLimitRule(policy: RoutePolicy | undefined): RateLimitRule | undefined {
  const rule = policy?.rateLimit;
  return typeof rule === 'string' ? RATE_LIMIT_RULES[rule] : rule;
}

/** A route under the base path as registered: its method, its path relative to the base path, its policy. */
export interface DeclaredRoute {
  method: string;
  path: string;
  policy: RoutePolicy;
}

/**
 * The routes' declarations gathered as they are registered, for what needs them as a list rather than per request:
 * the hosted pages' config.json (which forms need a bot-check token) and the tests that hold every route to its
 * declared policies. Nothing here decides a request: the guards read the route's own options.
 */
export class RoutePolicies {
  private readonly declared: DeclaredRoute[] = [];

  constructor(private readonly basePath: string) {}

  /** Records every route registered on `app` from now on, and makes the list `app.routePolicies`. */
  collect(app: FastifyInstance): void {
    app.decorate<RoutePolicies>('routePolicies', this);
    app.addHook('onRoute', (route: RouteOptions) => {
      if (!route.url.startsWith(`${this.basePath}/`)) return;
      const path = route.url.slice(this.basePath.length);
      for (const method of ([] as string[]).concat(route.method))
        this.declared.push({ method, path, policy: route.config?.policy ?? {} });
    });
  }

  routes(): DeclaredRoute[] {
    return [...this.declared];
  }

  /** The POST paths that declare the bot check, in the order they were registered. */
  botChecked(): string[] {
    return this.declared.filter((r) => r.method === 'POST' && r.policy.botCheck === true).map((r) => r.path);
  }
}
