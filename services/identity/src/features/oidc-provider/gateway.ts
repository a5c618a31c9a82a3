import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { closeWhenDraining, type Lifecycle } from '../../http/drain';
import type { SessionWithUser } from '../../shared/views';
import type { ProviderHost } from './host';
import type { SessionLookup } from './provider';

/**
 * The headers of the provider's answers: the API's security headers less what would break its pages (the form
 * that posts a code back to a client, the sign-out form): scripts only from this origin, to which the library adds
 * the hash of the one inline script it writes, inline styles, and no limit on where a form posts.
 */
export const PROVIDER_HEADERS: Readonly<Record<string, string>> = {
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'",
};

/** Headers set by the service's hooks that the provider's answer replaces. */
const REPLACED = new Set([...Object.keys(PROVIDER_HEADERS), 'cross-origin-resource-policy']);

const DEADLINE_ANSWER = JSON.stringify({
  error: 'temporarily_unavailable',
  error_description: 'the request took too long',
});

/**
 * Hands a request the route matched over to the library (docs/decisions/0020-openid-provider-library.md): the
 * route's hooks have run (request id, rate limit, the deadline's context; the request line and metrics come when the
 * answer ends), then the reply is hijacked and the provider's own listener answers it, with its own body parsing,
 * CORS and errors. Before that the request is made to look, to the provider, as it is at the issuer: the path
 * under the API's base path, the issuer's scheme and host, and the caller's address as the service resolved it.
 */
export class ProviderGateway {
  private readonly sessions = new WeakMap<IncomingMessage, SessionLookup>();
  private readonly signOuts = new WeakMap<IncomingMessage, () => Promise<void>>();
  private readonly issuer: URL;

  constructor(
    private readonly host: ProviderHost,
    issuer: string,
    private readonly basePath: string,
    private readonly deadlineMs: number,
    private readonly lifecycle: Lifecycle,
  ) {
    this.issuer = new URL(issuer);
  }

  /** The service session of a request handed over (for the provider's session, provider.ts). */
  sessionOf(request: IncomingMessage): SessionLookup | undefined {
    return this.sessions.get(request);
  }

  /** Ends the service session of a request handed over (RP-initiated logout, provider.ts). */
  signOutOf(request: IncomingMessage): (() => Promise<void>) | undefined {
    return this.signOuts.get(request);
  }

  /**
   * Answers the request with the provider. `innerPath` is the provider's own path for it (the well-known
   * documents), else the request's path under the base path. `service` looks up the caller's service session and
   * ends it, when the provider asks.
   */
  async handOver(
    request: FastifyRequest,
    reply: FastifyReply,
    service: { session(): Promise<SessionWithUser | null>; signOut(): Promise<void> },
    innerPath?: string,
  ): Promise<void> {
    const { handle } = await this.host.current();
    const raw = request.raw;
    const url = raw.url ?? '/';
    const q = url.indexOf('?');
    const search = q === -1 ? '' : url.slice(q);
    const path = innerPath ?? this.inner(q === -1 ? url : url.slice(0, q));
    (raw as IncomingMessage & { originalUrl?: string }).originalUrl = `${this.basePath}${path}${search}`;
    raw.url = `${path}${search}`;
    this.asIssuer(request);
    this.sessions.set(raw, () => service.session());
    this.signOuts.set(raw, () => service.signOut());

    const response = reply.raw;
    // The request line (written when the answer ends) names the URL as it came.
    const restore = () => {
      raw.url = url;
    };
    response.prependOnceListener('finish', restore);
    response.prependOnceListener('error', restore);
    for (const [name, value] of Object.entries(reply.getHeaders()))
      if (value !== undefined && !REPLACED.has(name)) response.setHeader(name, value as string | string[]);
    for (const [name, value] of Object.entries(PROVIDER_HEADERS)) response.setHeader(name, value);
    // As Fastify's answers do while the service drains (http/drain.ts), decided when the head is written.
    const writeHead = response.writeHead;
    response.writeHead = ((...args: Parameters<ServerResponse['writeHead']>) => {
      closeWhenDraining(this.lifecycle, response);
      return writeHead.apply(response, args);
    }) as ServerResponse['writeHead'];
    const remaining = Math.max(1, (request.routeOptions.config.deadlineMs ?? this.deadlineMs) - reply.elapsedTime);
    reply.hijack();
    // Hijacked, the route has no deadline of its own any more: the answer is 503 at the deadline all the same.
    const timer = setTimeout(() => answerLate(response), remaining);
    try {
      await handle(raw, response);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Makes the request look, to the provider, as it is at the issuer: its scheme and host, and the caller's address
   * as the service resolved it (whatever forwarding headers the caller sent).
   */
  asIssuer(request: FastifyRequest): void {
    const headers = request.raw.headers;
    headers['x-forwarded-proto'] = this.issuer.protocol.slice(0, -1);
    headers['x-forwarded-host'] = this.issuer.host;
    headers['x-forwarded-for'] = request.ip;
    delete headers.forwarded;
  }

  /** `/api/auth//oauth2/token/` → `/oauth2/token`, as Fastify routed it (duplicate and trailing slashes ignored). */
  private inner(path: string): string {
    let clean = path.replace(/\/{2,}/g, '/');
    if (clean.length > 1) clean = clean.replace(/\/+$/, '');
    return clean.startsWith(`${this.basePath}/`) ? clean.slice(this.basePath.length) : clean;
  }
}

function answerLate(response: ServerResponse): void {
  if (response.headersSent || response.writableEnded) return;
  response.statusCode = 503;
  response.setHeader('content-type', 'application/json; charset=utf-8');
  response.setHeader('retry-after', '1');
  response.end(DEADLINE_ANSWER);
}
