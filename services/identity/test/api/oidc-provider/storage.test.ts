import * as oidc from 'openid-client';
import { signUp } from '../../setup/fixtures';
import { authorizationRequest, browse, discover, FIRST_PARTY, type OpTest, startOpTest } from './helpers';

/**
 * The provider's storage (docs/oidc-provider.md, "Storage"): grants and refresh tokens in PostgreSQL, the rest in
 * the key-value store (Redis, or in process without REDIS_URL); a grant's revocation reaches every record of it.
 */
describe.each([
  ['Redis', {}],
  ['in process (no REDIS_URL)', { REDIS_URL: '' }],
])('with the key-value store %s', (_store, env: Record<string, string>) => {
  let s: OpTest;
  beforeAll(async () => {
    s = await startOpTest(env);
  });
  afterAll(() => s?.close());

  async function signedInTokens() {
    const u = await signUp(s.app);
    const config = await discover(s.app, FIRST_PARTY);
    const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
    const { url } = await browse(s.app, u.jar, request.url);
    const tokens = await oidc.authorizationCodeGrant(config, url, {
      pkceCodeVerifier: request.verifier,
      expectedState: request.state,
    });
    return { u, config, tokens };
  }

  it('the whole flow works, refresh included', async () => {
    const { u, config, tokens } = await signedInTokens();
    expect(tokens.refresh_token).toBeTruthy();
    const refreshed = await oidc.refreshTokenGrant(config, tokens.refresh_token!);
    expect((await oidc.fetchUserInfo(config, refreshed.access_token, u.userId)).sub).toBe(u.userId);
  });

  it('revokeByGrantId removes every record of the grant, in both stores', async () => {
    const { tokens } = await signedInTokens();
    const { provider } = await s.t.ctx.features.oidcProvider!.host.current();
    const access = await provider.AccessToken.find(tokens.access_token);
    expect(access?.grantId).toBeTruthy();
    const grantId = access!.grantId!;
    const refresh = await provider.RefreshToken.find(tokens.refresh_token!);
    expect(refresh?.grantId).toBe(grantId);
    const code = new provider.AuthorizationCode({
      accountId: access!.accountId,
      client: await provider.Client.find(FIRST_PARTY.client_id),
      grantId,
      redirectUri: FIRST_PARTY.redirect_uris[0],
      scope: 'openid',
      codeChallenge: 'x'.repeat(43),
      codeChallengeMethod: 'S256',
    } as never);
    const codeValue = await code.save();
    expect(await provider.AuthorizationCode.find(codeValue)).toBeDefined();

    for (const model of [provider.AccessToken, provider.RefreshToken, provider.AuthorizationCode])
      await model.revokeByGrantId(grantId);
    await provider.Grant.adapter.destroy(grantId);

    expect(await provider.AccessToken.find(tokens.access_token)).toBeUndefined();
    expect(await provider.RefreshToken.find(tokens.refresh_token!)).toBeUndefined();
    expect(await provider.AuthorizationCode.find(codeValue)).toBeUndefined();
    expect(await provider.Grant.find(grantId)).toBeUndefined();
    expect(await s.t.ctx.sql.query('SELECT id FROM oidc_records WHERE grant_id = $1', [grantId])).toEqual([]);
  });

  it('the expiry sweep deletes expired grants and refresh tokens', async () => {
    const { u } = await signedInTokens();
    await s.t.ctx.sql.query("UPDATE oidc_records SET expires_at = now() - interval '1 hour' WHERE user_id = $1", [
      u.userId,
    ]);
    expect((await s.t.ctx.sweepExpired()).oidcRecords).toBeGreaterThanOrEqual(2);
    expect(await s.t.ctx.sql.query('SELECT id FROM oidc_records WHERE user_id = $1', [u.userId])).toEqual([]);
  });

  it('a deleted user’s grants and refresh tokens go with the user', async () => {
    const { u } = await signedInTokens();
    expect((await s.t.ctx.sql.query('SELECT id FROM oidc_records WHERE user_id = $1', [u.userId])).length).toBe(2);
    await s.t.ctx.sql.query('DELETE FROM users WHERE id = $1', [u.userId]);
    expect(await s.t.ctx.sql.query('SELECT id FROM oidc_records WHERE user_id = $1', [u.userId])).toEqual([]);
  });
});
