import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import * as oidc from 'openid-client';
import { signUp } from '../../setup/fixtures';
import { authorizationRequest, browse, call, discover, FIRST_PARTY, ISSUER, type OpTest, startOpTest } from './helpers';

/**
 * The provider's keys are the service's signing keys (docs/oidc-provider.md, "Keys"): an RS256 key beside the
 * configured algorithm's (EdDSA here), the same set on both JWKS endpoints, and a rotation followed at once.
 */
let s: OpTest;
beforeAll(async () => {
  s = await startOpTest();
});
afterAll(() => s?.close());

const kids = (set: { keys: Array<{ kid: string }> }) => set.keys.map((k) => k.kid).sort();

async function idToken(): Promise<string> {
  const u = await signUp(s.app);
  const config = await discover(s.app, FIRST_PARTY);
  const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
  const { url } = await browse(s.app, u.jar, request.url);
  const tokens = await oidc.authorizationCodeGrant(config, url, {
    pkceCodeVerifier: request.verifier,
    expectedState: request.state,
  });
  return tokens.id_token!;
}

it('publishes the service’s keys: an active RS256 key beside the configured algorithm’s, no private part', async () => {
  const published = (await call(s.app, `${ISSUER}/oauth2/jwks`)).json();
  const service = await s.t.ctx.features.jwt.keys.publicSet();
  expect(kids(published)).toEqual(kids(service));
  // (this instance's view: the table is shared with the other test files, whose instances may use other algorithms)
  const active = (await s.t.ctx.features.jwt.keys.privateSet()).filter((k) => k.retiredAt === null);
  expect(active.map((k) => k.alg).sort()).toEqual([s.t.config.jwt.alg, 'RS256'].sort());
  for (const key of published.keys) {
    expect(key.d).toBeUndefined();
    expect(key.p).toBeUndefined();
  }
  // the session tokens keep the configured algorithm
  expect((await s.t.ctx.features.jwt.keys.signingKey()).alg).toBe(s.t.config.jwt.alg);
});

it('after a rotation, new id tokens are signed with the new key and verify with the published set', async () => {
  const before = decodeProtectedHeader(await idToken()).kid;
  await s.t.ctx.features.jwt.keys.rotate();
  const rs256 = await s.t.ctx.features.jwt.keys.signingKey('RS256');
  expect(rs256.kid).not.toBe(before);
  const token = await idToken();
  expect(decodeProtectedHeader(token).kid).toBe(rs256.kid);
  const keys = createLocalJWKSet((await call(s.app, `${ISSUER}/oauth2/jwks`)).json());
  const { payload } = await jwtVerify(token, keys, { issuer: ISSUER, audience: FIRST_PARTY.client_id });
  expect(payload.iss).toBe(ISSUER);
  // the retired key stays published for the tokens it signed
  expect(kids((await call(s.app, `${ISSUER}/oauth2/jwks`)).json())).toContain(before);
});
