import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from 'jose';
import type Provider from 'oidc-provider';
import { PUBLIC_URL } from './public-url';

/** A user at the provider: the claims it releases (sub is the account id). */
export interface ProviderUser {
  email?: string;
  email_verified?: boolean;
  name?: string;
  picture?: string;
  /**
   * What the userinfo endpoint answers instead of the claims above, for this user only (a misbehaving or hostile
   * provider): `sub` makes it answer for another subject; other keys replace those claims there, not in id tokens.
   */
  userinfo?: { sub?: string } & Omit<ProviderUser, 'userinfo'>;
}

export interface MintOptions {
  expiresInSec?: number;
  iatOffsetSec?: number;
  /** No iat claim at all (the expiry still counts from the offset time). */
  omitIat?: boolean;
  issuer?: string;
}

export interface OidcClient {
  clientId: string;
  clientSecret: string;
  redirectUris: string[];
}

export interface LoopbackOidc {
  issuer: string;
  users: Map<string, ProviderUser>;
  /** Who logs in when the authorization request has no login_hint (link-social has none). */
  defaultLogin: string;
  /** Signs an id token with the provider's own key (as the provider would for a mobile app). */
  mintIdToken(claims: JWTPayload, options?: MintOptions): Promise<string>;
  /** Signs with a key the provider never published, under the provider's key id. */
  mintForeignIdToken(claims: JWTPayload): Promise<string>;
  /**
   * A browser at the provider: follows the authorization URL through login and consent (our own
   * interaction handler) and answers the URL the provider redirects back to (the service's callback).
   */
  authorize(url: string): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID provider (oidc-provider 9) on a loopback port. The user that signs in is the authorization
 * request's login_hint (the service passes `loginHint` through); login_hint "deny" makes the user refuse.
 */
export async function startOidcProvider(clients: OidcClient[]): Promise<LoopbackOidc> {
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid: 'loopback-1', use: 'sig', alg: 'RS256' };
  const users = new Map<string, ProviderUser>();
  // oidc-provider warns about Node 20 and its in-memory adapter (fine for a test provider): keep the log clean.
  const warn = console.warn;
  console.warn = () => {};
  const Oidc = (await import('oidc-provider')).default;
  const provider = new Oidc(issuer, {
    clients: clients.map((c) => ({
      client_id: c.clientId,
      client_secret: c.clientSecret,
      redirect_uris: c.redirectUris,
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    })),
    jwks: { keys: [jwk] },
    scopes: ['openid', 'email', 'profile', 'offline_access'],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'picture'] },
    conformIdTokenClaims: false,
    // The userinfo endpoint loads the account with the access token: that is where a `userinfo` override applies
    // (oidc-provider answers the returned accountId as `sub`).
    findAccount: async (_ctx, sub, token) => {
      const { userinfo, ...claims } = users.get(sub) ?? {};
      const lie = token?.kind === 'AccessToken' ? userinfo : undefined;
      const { sub: otherSub, ...otherClaims } = lie ?? {};
      return {
        accountId: otherSub ?? sub,
        claims: async (use: string) => ({ sub, ...claims, ...(use === 'userinfo' ? otherClaims : {}) }),
      };
    },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    features: { devInteractions: { enabled: false } },
    ttl: {
      AccessToken: 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 86400,
      Grant: 86400,
      Interaction: 600,
      Session: 3600,
    },
  });
  console.warn = warn;
  const handle = provider.callback();
  const state = { defaultLogin: 'default-user' };
  server.on('request', (req, res) => {
    if (req.url?.startsWith('/interaction/')) void interaction(provider, req, res, state.defaultLogin);
    else handle(req, res);
  });

  const sign = (claims: JWTPayload, key: CryptoKey | JWK, opts: MintOptions = {}) => {
    const iat = Math.floor(Date.now() / 1000) + (opts.iatOffsetSec ?? 0);
    const jwt = new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'RS256', kid: 'loopback-1', typ: 'JWT' })
      .setIssuer(opts.issuer ?? issuer)
      .setExpirationTime(iat + (opts.expiresInSec ?? 600));
    return (opts.omitIat ? jwt : jwt.setIssuedAt(iat)).sign(key as CryptoKey);
  };

  return {
    issuer,
    users,
    get defaultLogin() {
      return state.defaultLogin;
    },
    set defaultLogin(sub: string) {
      state.defaultLogin = sub;
    },
    mintIdToken: (claims, opts) => sign(claims, privateKey, opts),
    mintForeignIdToken: async (claims) => sign(claims, (await generateKeyPair('RS256')).privateKey),
    async authorize(url) {
      const cookies = new Map<string, string>();
      let next = new URL(url);
      for (let hop = 0; hop < 12; hop++) {
        if (next.origin === PUBLIC_URL) return next;
        const response = await fetch(next, {
          redirect: 'manual',
          headers: { cookie: [...cookies].map(([k, v]) => `${k}=${v}`).join('; ') },
        });
        for (const line of response.headers.getSetCookie()) {
          const [pair] = line.split(';');
          const eq = pair.indexOf('=');
          cookies.set(pair.slice(0, eq), pair.slice(eq + 1));
        }
        const location = response.headers.get('location');
        if (!location) throw new Error(`provider stopped at ${next} with ${response.status}: ${await response.text()}`);
        next = new URL(location, next);
      }
      throw new Error('too many redirects at the provider');
    },
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
}

type Req = Parameters<Provider['interactionDetails']>[0];
type Res = Parameters<Provider['interactionDetails']>[1];

/** Login as the login_hint (or refuse), then grant every scope and claim asked for. */
async function interaction(provider: Provider, req: Req, res: Res, defaultLogin: string): Promise<void> {
  try {
    const details = await provider.interactionDetails(req, res);
    const hint = String(details.params.login_hint ?? defaultLogin);
    if (hint === 'deny') {
      await provider.interactionFinished(req, res, { error: 'access_denied', error_description: 'refused' });
      return;
    }
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(req, res, { login: { accountId: hint } }, { mergeWithLastSubmission: false });
      return;
    }
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    const grant = details.grantId
      ? (await provider.Grant.find(details.grantId))!
      : new provider.Grant({ accountId: details.session!.accountId, clientId: String(details.params.client_id) });
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  } catch (error) {
    res.statusCode = 500;
    res.end(String(error));
  }
}
