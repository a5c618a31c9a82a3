import type { CookieSerializeOptions } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { decodeCookieCache, encodeCookieCache } from '../features/session/cookie-cache';
import type { SessionWithUser } from '../shared/views';

/**
 * The session cookies (DESIGN §3): `<prefix>.session_token` (signed, HttpOnly) and the signed session-cache
 * cookie `<prefix>.session_data`. On https both carry Secure and the `__Secure-` name prefix.
 */
export class SessionCookies {
  readonly tokenName: string;
  readonly dataName: string;
  private readonly base: CookieSerializeOptions;

  constructor(
    private readonly config: Config,
    private readonly cacheKey: Buffer,
  ) {
    const secure = config.publicUrl.startsWith('https://');
    const prefix = `${secure ? '__Secure-' : ''}${config.session.cookiePrefix}`;
    this.tokenName = `${prefix}.session_token`;
    this.dataName = `${prefix}.session_data`;
    this.base = { httpOnly: true, secure, sameSite: 'lax', path: '/' };
  }

  /** The session token from the signed cookie, or from `Authorization: Bearer` (internal services). */
  readToken(request: FastifyRequest): string | null {
    const cookie = request.cookies[this.tokenName];
    if (cookie) {
      const unsigned = request.unsignCookie(cookie);
      return unsigned.valid ? unsigned.value : null;
    }
    const auth = request.headers.authorization;
    if (auth && auth.length < 512 && auth.startsWith('Bearer ')) {
      const token = auth.slice(7).trim();
      if (!token.includes('.')) return /^[A-Za-z0-9]{16,128}$/.test(token) ? token : null;
      const unsigned = request.unsignCookie(token); // a client may forward the signed cookie value
      return unsigned.valid ? unsigned.value : null;
    }
    return null;
  }

  readCache(request: FastifyRequest, token: string, now: number): SessionWithUser | null {
    const cookie = request.cookies[this.dataName];
    return cookie ? decodeCookieCache(cookie, token, now, this.cacheKey) : null;
  }

  /** Sets the token cookie (no Max-Age when remember-me is off: a browser-session cookie) and the cache cookie. */
  set(reply: FastifyReply, value: SessionWithUser, now: number): void {
    const { session } = value;
    const maxAge = Math.max(0, Math.floor((Date.parse(session.expiresAt) - now) / 1000));
    reply.setCookie(this.tokenName, session.token, {
      ...this.base,
      signed: true,
      maxAge: session.rememberMe ? maxAge : undefined,
    });
    this.setCache(reply, value, now);
  }

  setCache(reply: FastifyReply, value: SessionWithUser, now: number): void {
    const maxAge = this.config.session.cookieCacheMaxAgeSec;
    if (maxAge <= 0) return;
    const encoded = encodeCookieCache(value, maxAge, now, this.cacheKey, this.dataName.length);
    if (encoded) reply.setCookie(this.dataName, encoded, { ...this.base, maxAge });
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.tokenName, this.base);
    reply.clearCookie(this.dataName, this.base);
  }
}
