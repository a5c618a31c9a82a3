import { type CookieSerializeOptions, Signer } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config';
import { BoundedMap } from '../shared/bounded-map';
import { sessionJson } from '../shared/session-json';
import type { SignInResult } from '../shared/sign-in';
import type { SessionView, SessionWithUser } from '../shared/views';
import { type CachedSession, decodeCookieCache, encodeCookieCache, isUsable } from './cookie-cache';

/** Memo sizes: enough for every browser active within a minute on one instance; a few MB at most. */
const MEMO_ENTRIES = 4096;
/** A cache cookie made for the same body this recently is sent again instead of signing a new one. */
const REUSE_ENCODED_MS = 1000;

interface Encoded {
  json: string;
  cookie: string;
  madeAt: number;
  /** The Set-Cookie value of `cookie`, once an answer written outside Fastify needed it. */
  header?: string;
  /** An answer has set it (lookups send it again only to a request that carried an unusable one). */
  sent?: boolean;
}

/** What a looked-up session's cookies need (from a session cache entry's head, without parsing its body). */
export interface LookedUpSession {
  token: string;
  rememberMe: boolean;
  /** Milliseconds since the epoch. */
  expiresAt: number;
}

/** The cookie plugin's serializer (`app.serializeCookie`), as Fastify's path calls it through `reply.setCookie`. */
export type SerializeCookie = (name: string, value: string, options: CookieSerializeOptions) => string;

/** A presented session token (signature verified, or a plain Bearer token); `renew`: signed under a previous secret only. */
export interface Verified {
  token: string;
  renew: boolean;
}

/**
 * The session cookies (docs/sessions.md): `<prefix>.session_token` (signed, HttpOnly) and the signed session-cache
 * cookie `<prefix>.session_data`. On https both carry Secure and the `__Secure-` name prefix. One signer signs and
 * verifies both (and every other signed cookie, through the cookie plugin): the current secret's key signs, each
 * previous secret's key still verifies (rotation, docs/security.md).
 *
 * get-session is the hot path, so verified results are memoized: a token cookie's signature is checked once per
 * value, a cache cookie is decoded once per value (its max age and token pairing are still checked on every
 * use), and a cache cookie signed for a body is reused for a second. Only values whose signature verified are
 * remembered, so forged cookies cannot fill the memos.
 */
export class SessionCookies {
  readonly tokenName: string;
  readonly dataName: string;
  /** better-auth's two-factor cookies (docs/two-factor.md): the pending sign-in, and a trusted device. */
  readonly twoFactorName: string;
  readonly trustDeviceName: string;
  /** better-auth's passkey cookie (docs/two-factor.md "Passkeys"): the registration or sign-in challenge in progress. */
  readonly passkeyName: string;
  private readonly base: CookieSerializeOptions;
  private readonly tokens = new BoundedMap<string, Verified>(MEMO_ENTRIES);
  private readonly decoded = new BoundedMap<string, { cookie: string; session: CachedSession }>(MEMO_ENTRIES);
  private readonly encoded = new BoundedMap<string, Encoded>(MEMO_ENTRIES);

  /**
   * Signs and verifies both cookies; the cookie plugin is registered with this same signer (app.ts). Its keys: the
   * current secret's first (it signs), then the previous secrets' (they verify, and `unsign` reports `renew`).
   */
  readonly signer: Signer;

  constructor(
    private readonly config: Config,
    keys: readonly Buffer[],
  ) {
    this.signer = new Signer([...keys], 'sha256');
    const secure = config.publicUrl.startsWith('https://');
    const prefix = `${secure ? '__Secure-' : ''}${config.session.cookiePrefix}`;
    this.tokenName = `${prefix}.session_token`;
    this.dataName = `${prefix}.session_data`;
    this.twoFactorName = `${prefix}.two_factor`;
    this.trustDeviceName = `${prefix}.trust_device`;
    this.passkeyName = `${prefix}.better-auth-passkey`;
    this.base = { httpOnly: true, secure, sameSite: 'lax', path: '/' };
  }

  /** The session token from the signed cookie, or from `Authorization: Bearer` (internal services). */
  readToken(request: FastifyRequest): string | null {
    return this.presented(request)?.token ?? null;
  }

  /**
   * The same, and whether its signature verified under a previous secret only (`renew`, rotation:
   * docs/security.md): the session stands, and get-session sends both cookies again under the current secret.
   */
  presented(request: FastifyRequest): Verified | null {
    return this.presentedIn(request.cookies, request.headers.authorization);
  }

  /** The same from a parsed Cookie header and an Authorization header (get-session's fast path). */
  presentedIn(cookies: Record<string, string | undefined>, auth: string | undefined): Verified | null {
    const cookie = cookies[this.tokenName];
    if (cookie) return this.unsign(cookie);
    if (auth && auth.length < 512 && auth.startsWith('Bearer ')) {
      const token = auth.slice(7).trim();
      if (!token.includes('.')) return /^[A-Za-z0-9]{16,128}$/.test(token) ? { token, renew: false } : null;
      return this.unsign(token); // a client may forward the signed cookie value
    }
    return null;
  }

  /** The cache cookie's body when it is valid for `token` now. */
  readCache(request: FastifyRequest, token: string, now: number): CachedSession | null {
    return this.cacheFrom(request.cookies, token, now);
  }

  /**
   * The token cookie's value when its signature verifies under the current secret. `cookies` is the parsed Cookie
   * header, as the cookie plugin parses it: the get-session fast path's (cookie-fast-path.ts), which sets no
   * cookie, so a cookie signed under a previous secret is left to Fastify's path, which sends it again.
   */
  tokenFrom(cookies: Record<string, string | undefined>): string | null {
    const cookie = cookies[this.tokenName];
    const verified = cookie ? this.unsign(cookie) : null;
    return verified && !verified.renew ? verified.token : null;
  }

  /** The cache cookie of a parsed Cookie header, when it is valid for `token` now. */
  cacheFrom(cookies: Record<string, string | undefined>, token: string, now: number): CachedSession | null {
    const cookie = cookies[this.dataName];
    if (!cookie) return null;
    // Keyed by the signature (43 characters) rather than the whole cookie (about 1,000): a Map lookup hashes its
    // key on every request. The memo holds the whole cookie, so a different cookie with the same signature is
    // decoded (and refused) rather than answered from the memo.
    const signature = cookie.slice(cookie.lastIndexOf('.') + 1);
    const memo = this.decoded.get(signature);
    let cached = memo?.cookie === cookie ? memo.session : undefined;
    if (!cached) {
      const fresh = decodeCookieCache(cookie, this.signer);
      if (!fresh) return null;
      this.decoded.set(signature, { cookie, session: fresh });
      cached = fresh;
    }
    return isUsable(cached, token, now) ? cached : null;
  }

  /** Sets the token cookie and the cache cookie of `value`, lifetimes by `lifetime`. */
  set(reply: FastifyReply, value: SessionWithUser, now: number, json = sessionJson(value)): void {
    const { session } = value;
    const maxAge = Math.max(0, Math.floor((Date.parse(session.expiresAt) - now) / 1000));
    reply.setCookie(this.tokenName, session.token, { ...this.lifetime(session, maxAge), signed: true });
    this.setCache(reply, session, json, now);
  }

  /** The cache cookie for the get-session body `json` of `session`, always sent (a sign-in, a change of the session). */
  setCache(reply: FastifyReply, session: SessionView, json: string, now: number): void {
    this.lookupCache(reply, session, json, now, true);
  }

  /**
   * The cache cookie after a lookup (get-session found the session and did not renew it), as `setCache`, except
   * to a request that carried no cache cookie at all while the cookie made for this body less than a second ago
   * is reused: that one went to the same token's holder already, and a holder that keeps no cookies (a service
   * forwarding the browser's token cookie) would get the same 1.4 KB with every answer. A request that carried
   * an unusable cache cookie (expired, of another body, tampered) is sent it.
   */
  lookupCache(reply: FastifyReply, session: SessionView, json: string, now: number, carried: boolean): void {
    const maxAge = this.config.session.cookieCacheMaxAgeSec;
    const encoded = maxAge > 0 ? this.encode(session.token, json, maxAge, now) : null;
    if (encoded && (carried || !encoded.sent)) {
      encoded.sent = true;
      reply.setCookie(this.dataName, encoded.cookie, this.lifetime(session, maxAge));
    }
  }

  /**
   * The Set-Cookie values get-session sends a browser (its token cookie present) for a session it looked up, as
   * `set` (renewed) or `lookupCache` (otherwise; `carried`: the request had a cache cookie) put them on a reply,
   * serialized as the cookie plugin does: for an answer written outside Fastify (get-session's fast path). The
   * cache cookie's value is reused for a second (`REUSE_ENCODED_MS`), and so is its serialized form.
   */
  lookupCookies(
    session: LookedUpSession,
    json: string,
    now: number,
    renewed: boolean,
    carried: boolean,
    serialize: SerializeCookie,
  ) {
    const headers: string[] = [];
    if (renewed) {
      const maxAge = Math.max(0, Math.floor((session.expiresAt - now) / 1000));
      const options = { sameSite: 'lax' as const, ...this.lifetime(session, maxAge), signed: true };
      headers.push(serialize(this.tokenName, this.signer.sign(session.token), options));
    }
    const maxAge = this.config.session.cookieCacheMaxAgeSec;
    const encoded = maxAge > 0 ? this.encode(session.token, json, maxAge, now) : null;
    if (encoded && (renewed || carried || !encoded.sent)) {
      encoded.sent = true;
      encoded.header ??= serialize(this.dataName, encoded.cookie, {
        sameSite: 'lax',
        ...this.lifetime(session, maxAge),
      });
      headers.push(encoded.header);
    }
    return headers;
  }

  /** The signed cache cookie for `json`: the one made for the same body less than a second ago, else a new one. */
  private encode(token: string, json: string, maxAge: number, now: number): Encoded | null {
    const last = this.encoded.get(token);
    if (last && last.json === json && now >= last.madeAt && now - last.madeAt < REUSE_ENCODED_MS) return last;
    const cookie = encodeCookieCache(json, maxAge, now, this.signer, this.dataName.length);
    if (!cookie) return null;
    const encoded = { json, cookie, madeAt: now };
    this.encoded.set(token, encoded);
    return encoded;
  }

  /**
   * After a change to the caller's session (active organization): a browser holding the token cookie gets a
   * new cache cookie, so get-session does not serve the old body from it for up to its max age.
   */
  reissueCache(request: FastifyRequest, reply: FastifyReply, value: SessionWithUser, now: number): void {
    if (request.cookies[this.tokenName] !== undefined) this.setCache(reply, value.session, sessionJson(value), now);
  }

  /**
   * The cookies of a sign-in's result (the sign-in seam's, shared/sign-in.ts): the session cookies and a renewed or
   * new trusted-device cookie; or, for a pending sign-in, its signed cookie, the browser's session cookies cleared
   * (no session of anyone's lingers beside it) and a trusted-device cookie that did not help cleared too.
   */
  applySignIn(reply: FastifyReply, result: SignInResult, now: number): void {
    if (result.kind === 'second-factor') {
      this.clear(reply);
      if (result.forgetDevice) this.clearNamed(reply, this.trustDeviceName);
      this.setSigned(reply, this.twoFactorName, result.challenge);
      return;
    }
    this.set(reply, result.current, now);
    if (result.trustedDevice) this.setSigned(reply, this.trustDeviceName, result.trustedDevice);
  }

  /** A signed, HttpOnly cookie of the second factor's or a passkey's: `value` kept `maxAgeSec`. */
  setSigned(reply: FastifyReply, name: string, grant: { value: string; maxAgeSec: number }): void {
    reply.setCookie(name, grant.value, { ...this.base, maxAge: grant.maxAgeSec, signed: true });
  }

  /** The value of a signed cookie when its signature verifies (the current secret or a previous one), else null. */
  readSigned(request: FastifyRequest, name: string): string | null {
    const cookie = request.cookies[name];
    if (!cookie || cookie.length > 512) return null;
    const unsigned = this.signer.unsign(cookie);
    return unsigned.valid ? unsigned.value : null;
  }

  /**
   * The trusted-device cookie for the second factor's gate: its value when the signature verifies, '' when one is
   * present but does not verify (it names no device, and is cleared like an unknown one), null when there is none.
   */
  readTrustedDevice(request: FastifyRequest): string | null {
    return this.readSigned(request, this.trustDeviceName) ?? (request.cookies[this.trustDeviceName] ? '' : null);
  }

  clearNamed(reply: FastifyReply, name: string): void {
    reply.clearCookie(name, this.base);
  }

  clear(reply: FastifyReply): void {
    reply.clearCookie(this.tokenName, this.base);
    reply.clearCookie(this.dataName, this.base);
  }

  /**
   * The `Set-Cookie` values `clear` sends, for an answer that another listener writes (a reply handed over to the
   * OpenID provider): `serialize` is the cookie plugin's own.
   */
  clearing(serialize: (name: string, value: string, options: CookieSerializeOptions) => string): string[] {
    const cleared = { ...this.base, expires: new Date(0), maxAge: 0 };
    return [serialize(this.tokenName, '', cleared), serialize(this.dataName, '', cleared)];
  }

  /**
   * The one place that decides how long the browser keeps a session cookie. spec §4 rememberMe: false: neither
   * cookie carries Max-Age or Expires (they end with the browser session), on sign-in and on every later answer
   * that sets them again; the cache cookie's own max age still holds, signed into its value (cookie-cache.ts).
   * Otherwise the cookie lives `maxAgeSec`.
   */
  private lifetime(session: Pick<SessionView, 'rememberMe'>, maxAgeSec: number): CookieSerializeOptions {
    return session.rememberMe ? { ...this.base, maxAge: maxAgeSec } : this.base;
  }

  private unsign(signed: string): Verified | null {
    const known = this.tokens.get(signed);
    if (known !== undefined) return known;
    const unsigned = this.signer.unsign(signed);
    if (!unsigned.valid) return null;
    const verified = { token: unsigned.value, renew: unsigned.renew };
    this.tokens.set(signed, verified);
    return verified;
  }
}
