import * as oidc from 'openid-client';
import { signUp } from '../../setup/fixtures';
import { startTcpProxy, type TcpProxy } from '../../setup/tcp-proxy';
import { authorizationRequest, browse, call, discover, FIRST_PARTY, ISSUER, type OpTest, startOpTest } from './helpers';

/**
 * The provider with its stores out of reach under a running service (connections cut or hung by a proxy): it
 * answers 503 `temporarily_unavailable` with Retry-After in bounded time, never a 500, and recovers without a
 * restart (docs/oidc-provider.md, "Storage"; docs/operations.md).
 */
describe.each([
  ['Redis', () => Number(new URL(process.env.TEST_REDIS_URL!).port || 6379), 'REDIS_URL'],
  ['PostgreSQL', () => Number(new URL(process.env.TEST_DATABASE_URL!).port || 5432), 'DATABASE_URL'],
] as const)('%s out of reach', (engine, port, setting) => {
  let proxy: TcpProxy;
  let s: OpTest;
  beforeAll(async () => {
    proxy = await startTcpProxy(port());
    const url = new URL(engine === 'Redis' ? process.env.TEST_REDIS_URL! : process.env.TEST_DATABASE_URL!);
    url.host = `127.0.0.1:${proxy.port}`;
    s = await startOpTest({ [setting]: url.toString() });
  });
  afterAll(async () => {
    proxy?.restore();
    await s?.close();
    await proxy?.close();
  });

  const waitReady = async () => {
    for (let i = 0; i < 200; i++) {
      const probe = await s.app.inject({ method: 'GET', url: '/api/auth/health/ready' });
      if (probe.json().checks?.redis === 'ok' && probe.json().checks?.database === 'ok') return;
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error('not ready again');
  };

  it.each([
    ['cut', () => proxy.cut()],
    ['hung', () => proxy.hang()],
  ])(
    '%s: the code exchange and a new authorization answer 503 temporarily_unavailable in bounded time',
    async (_f, fault) => {
      await waitReady();
      const u = await signUp(s.app);
      const config = await discover(s.app, FIRST_PARTY);
      const request = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
      const { url } = await browse(s.app, u.jar, request.url);
      const code = url.searchParams.get('code')!;
      fault();
      try {
        let started = Date.now();
        const token = await call(s.app, `${ISSUER}/oauth2/token`, {
          method: 'POST',
          headers: {
            'content-type': 'application/x-www-form-urlencoded',
            authorization: `Basic ${Buffer.from(`${FIRST_PARTY.client_id}:${FIRST_PARTY.client_secret}`).toString('base64')}`,
          },
          body: new URLSearchParams({
            grant_type: 'authorization_code',
            code,
            redirect_uri: FIRST_PARTY.redirect_uris[0],
            code_verifier: request.verifier,
          }).toString(),
        });
        expect(Date.now() - started).toBeLessThan(8000);
        expect(token.statusCode).toBe(503);
        expect(token.json()).toMatchObject({ error: 'temporarily_unavailable' });
        expect(Number(token.headers['retry-after'])).toBeGreaterThan(0);

        started = Date.now();
        const again = await authorizationRequest(config, FIRST_PARTY.redirect_uris[0]);
        const res = await call(s.app, again.url, { jar: u.jar });
        expect(Date.now() - started).toBeLessThan(8000);
        // 503 (the error page), or the error at the client's redirect URI once the request was checked
        expect([503, 303]).toContain(res.statusCode);
        if (res.statusCode === 503) expect(res.body).toContain('temporarily_unavailable');
        else expect(new URL(res.headers.location as string).searchParams.get('error')).toBe('temporarily_unavailable');

        // what needs no store still answers
        expect((await call(s.app, `${ISSUER}/oauth2/jwks`)).statusCode).toBe(200);
      } finally {
        proxy.restore();
      }
      // back: the same code was never consumed, and the flow goes on
      await waitReady();
      const tokens = await oidc.authorizationCodeGrant(config, url, {
        pkceCodeVerifier: request.verifier,
        expectedState: request.state,
      });
      expect(tokens.claims()?.sub).toBe(u.userId);
    },
  );
});

describe('the request deadline', () => {
  let proxy: TcpProxy;
  let s: OpTest;
  beforeAll(async () => {
    proxy = await startTcpProxy(Number(new URL(process.env.TEST_REDIS_URL!).port || 6379));
    const url = new URL(process.env.TEST_REDIS_URL!);
    url.host = `127.0.0.1:${proxy.port}`;
    // shorter than Redis's own command timeout (1 s): what answers is the deadline
    s = await startOpTest({ REDIS_URL: url.toString(), REQUEST_TIMEOUT_MS: '500' });
  });
  afterAll(async () => {
    proxy?.restore();
    await s?.close();
    await proxy?.close();
  });

  it('holds for a request handed over to the provider: 503 at the deadline', async () => {
    // the provider built first (its keys made and announced while Redis answers)
    expect((await call(s.app, `${ISSUER}/oauth2/jwks`)).statusCode).toBe(200);
    proxy.hang();
    try {
      const started = Date.now();
      const res = await call(s.app, `${ISSUER}/oauth2/token`, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-www-form-urlencoded',
          authorization: `Basic ${Buffer.from(`${FIRST_PARTY.client_id}:${FIRST_PARTY.client_secret}`).toString('base64')}`,
        },
        body: 'grant_type=authorization_code&code=x&redirect_uri=https%3A%2F%2Fapp.example.test%2Fcallback&code_verifier=v',
      });
      const took = Date.now() - started;
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ error: 'temporarily_unavailable' });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(took).toBeGreaterThanOrEqual(450);
      expect(took).toBeLessThan(950);
    } finally {
      proxy.restore();
    }
  });
});
