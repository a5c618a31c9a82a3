import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { NAMED_PROVIDERS, type NamedProvider } from '../../../src/config/social';
import { mapProfile } from '../../../src/features/social/profile';
import { CATALOG } from '../../../src/features/social/providers/catalog';
import { PUBLIC_URL, startTestApp, type TestApp } from '../../setup/app';
import { CookieJar, post } from '../../setup/fixtures';

/** Each named provider's documented authorization endpoint and default scopes (spec §1). */
const DOCUMENTED: Record<
  string,
  { endpoint: string; scopes: string[]; clientParam?: string; extra?: Record<string, string> }
> = {
  apple: {
    endpoint: 'https://appleid.apple.com/auth/authorize',
    scopes: ['name', 'email'],
    extra: { response_mode: 'form_post' },
  },
  discord: { endpoint: 'https://discord.com/oauth2/authorize', scopes: ['identify', 'email'] },
  facebook: { endpoint: 'https://www.facebook.com/v21.0/dialog/oauth', scopes: ['email', 'public_profile'] },
  github: { endpoint: 'https://github.com/login/oauth/authorize', scopes: ['read:user', 'user:email'] },
  microsoft: {
    endpoint: 'https://login.microsoftonline.com/9188040d-6c67-4c5b-b112-36a304b66dad/oauth2/v2.0/authorize',
    scopes: ['openid', 'profile', 'email', 'User.Read', 'offline_access'],
  },
  google: {
    endpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    scopes: ['openid', 'email', 'profile'],
    extra: { access_type: 'offline' },
  },
  huggingface: { endpoint: 'https://huggingface.co/oauth/authorize', scopes: ['openid', 'profile', 'email'] },
  spotify: { endpoint: 'https://accounts.spotify.com/authorize', scopes: ['user-read-email'] },
  twitch: { endpoint: 'https://id.twitch.tv/oauth2/authorize', scopes: ['openid', 'user:read:email'] },
  twitter: {
    endpoint: 'https://x.com/i/oauth2/authorize',
    scopes: ['users.read', 'tweet.read', 'offline.access', 'users.email'],
  },
  dropbox: {
    endpoint: 'https://www.dropbox.com/oauth2/authorize',
    scopes: ['account_info.read'],
    extra: { token_access_type: 'offline' },
  },
  kick: { endpoint: 'https://id.kick.com/oauth/authorize', scopes: ['user:read'] },
  linkedin: { endpoint: 'https://www.linkedin.com/oauth/v2/authorization', scopes: ['openid', 'profile', 'email'] },
  gitlab: { endpoint: 'https://gitlab.com/oauth/authorize', scopes: ['read_user'] },
  tiktok: {
    endpoint: 'https://www.tiktok.com/v2/auth/authorize/',
    scopes: ['user.info.profile'],
    clientParam: 'client_key',
  },
  reddit: {
    endpoint: 'https://www.reddit.com/api/v1/authorize',
    scopes: ['identity'],
    extra: { duration: 'permanent' },
  },
  roblox: { endpoint: 'https://apis.roblox.com/oauth/v1/authorize', scopes: ['openid', 'profile'] },
  vk: { endpoint: 'https://id.vk.com/authorize', scopes: ['email', 'phone'] },
  zoom: { endpoint: 'https://zoom.us/oauth/authorize', scopes: ['user:read:user'] },
};

const TENANT = '9188040d-6c67-4c5b-b112-36a304b66dad';

let t: TestApp;
beforeAll(async () => {
  const providers = Object.fromEntries(
    NAMED_PROVIDERS.map((id) => [
      id,
      { clientId: `${id}-client-id`, ...(id === 'microsoft' ? { tenantId: TENANT } : {}) },
    ]),
  );
  // Secrets come from the environment, as in production (SOCIAL_<ID>_CLIENT_SECRET).
  const env = Object.fromEntries(
    NAMED_PROVIDERS.map((id) => [`SOCIAL_${id.toUpperCase()}_CLIENT_SECRET`, `${id}-secret`]),
  );
  t = await startTestApp({ social: { providers } }, env);
});
afterAll(() => t?.close());

const profile = (id: string) => JSON.parse(readFileSync(join(__dirname, 'profiles', `${id}.json`), 'utf8'));

describe('the 19 named providers', () => {
  it('are the spec §1 list, each with a definition and a recorded profile', () => {
    expect(Object.keys(DOCUMENTED).sort()).toEqual([...NAMED_PROVIDERS].sort());
    expect(Object.keys(CATALOG).sort()).toEqual([...NAMED_PROVIDERS].sort());
    expect(NAMED_PROVIDERS).toHaveLength(19);
    expect(t.config.social.providers.github.clientSecret).toBe('github-secret');
  });

  it.each(NAMED_PROVIDERS.map((id) => [id]))(
    '%s: authorization URL (endpoint, client id, scopes, state, PKCE)',
    async (id) => {
      const doc = DOCUMENTED[id];
      const jar = new CookieJar();
      const res = await post(t.app, '/sign-in/social', { provider: id, callbackURL: '/home' }, { jar });
      expect(res.statusCode).toBe(200);
      expect(res.json().redirect).toBe(true);
      const url = new URL(res.json().url);
      expect(`${url.origin}${url.pathname}`).toBe(doc.endpoint);
      const q = url.searchParams;
      expect(q.get(doc.clientParam ?? 'client_id')).toBe(`${id}-client-id`);
      expect(q.get('redirect_uri')).toBe(`${PUBLIC_URL}/api/auth/callback/${id}`);
      expect(q.get('response_type')).toBe('code');
      const separator = id === 'tiktok' ? ',' : ' ';
      expect(q.get('scope')!.split(separator).sort()).toEqual([...doc.scopes].sort());
      const state = q.get('state')!;
      expect(state).toMatch(/^[A-Za-z0-9]{32}$/);
      for (const [k, v] of Object.entries(doc.extra ?? {})) expect([k, q.get(k)]).toEqual([k, v]);
      // PKCE: the challenge is S256 of the 128-character verifier stored with the state.
      const stored = JSON.parse((await t.ctx.redis!.get(`${t.config.redisPrefix}oauth-state:${id}:${state}`))!);
      expect(stored.codeVerifier).toHaveLength(128);
      expect(q.get('code_challenge_method')).toBe('S256');
      expect(q.get('code_challenge')).toBe(createHash('sha256').update(stored.codeVerifier).digest('base64url'));
      expect(q.get('nonce') !== null).toBe(Boolean(stored.nonce));
    },
  );

  it.each(NAMED_PROVIDERS.map((id) => [id]))('%s: maps a recorded profile document to the user fields', (id) => {
    const { expected, userInfo = null, claims = null, extra = {}, callbackUser } = profile(id);
    expect(CATALOG[id].mapProfile({ userInfo, claims, extra, callbackUser })).toEqual(expected);
    // a document without the provider's user id maps to nothing (unable_to_get_user_info)
    expect(CATALOG[id].mapProfile({ userInfo: {}, claims: {}, extra: {} })).toBeNull();
  });

  const WITH_ID_TOKENS: NamedProvider[] = [
    'apple',
    'facebook',
    'google',
    'huggingface',
    'linkedin',
    'microsoft',
    'roblox',
    'twitch',
  ];

  it.each(WITH_ID_TOKENS.map((id) => [id]))(
    '%s: with an id token, who the user is comes from the token; other documents add profile fields only',
    (id) => {
      const { expected, userInfo = null } = profile(id);
      const claims = { sub: expected.id, email: 'token@example.com', email_verified: false };
      // another subject in the user-info document (OIDC Core §5.3.2): no profile
      const subjectKey = userInfo && 'sub' in userInfo ? 'sub' : 'id';
      if (userInfo) {
        const other = { ...userInfo, [subjectKey]: 'someone-else' };
        expect(mapProfile(CATALOG[id], { userInfo: other, claims, extra: {} })).toBeNull();
      }
      // the same subject claiming another, verified address: the token's address and verification stand
      const lying = userInfo && { ...userInfo, email: 'victim@example.com', email_verified: true, verified: true };
      const mapped = mapProfile(CATALOG[id], { userInfo: lying, claims, extra: {} });
      expect(mapped).toMatchObject({ id: expected.id, email: 'token@example.com', emailVerified: false });
    },
  );

  it('providers that issue id tokens accept id-token sign-in; the others answer "id_token not supported"', async () => {
    for (const id of NAMED_PROVIDERS) {
      const p = (await t.ctx.features.social.providers.get(id))!;
      expect([id, p.supportsIdToken]).toEqual([id, WITH_ID_TOKENS.includes(id)]);
    }
    const res = await post(t.app, '/sign-in/social', { provider: 'github', idToken: { token: 'x.y.z' } });
    expect(res.json().code).toBe('ID_TOKEN_NOT_SUPPORTED');
  });
});
