import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PUBLIC_URL } from '../../setup/app';
import { get, post, signUp } from '../../setup/fixtures';
import { CLIENT_ID, CLIENT_SECRET, type SocialTest, startSocialTest } from './helpers';

/**
 * A provider's issuer on a loopback port that a test controls, counting the connections and requests made to it:
 * `reset` drops each connection at once, `hang` reads requests and never answers, `serve` answers a discovery
 * document. (After a request times out, Node's fetch opens one spare connection that sends nothing: requests are
 * what counts there.)
 */
interface Issuer {
  url: string;
  mode: 'reset' | 'hang' | 'serve';
  connections: number;
  requests: number;
  close(): Promise<void>;
}

async function startIssuer(mode: Issuer['mode']): Promise<Issuer> {
  const server: Server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const issuer: Issuer = {
    url,
    mode,
    connections: 0,
    requests: 0,
    close: () =>
      new Promise<void>((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
  server.on('connection', (socket) => {
    issuer.connections++;
    if (issuer.mode === 'reset') socket.destroy();
  });
  server.on('request', (req, res) => {
    issuer.requests++;
    if (issuer.mode !== 'serve') return; // hang: never answer
    if (req.url !== '/.well-known/openid-configuration') return void res.writeHead(404).end();
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        issuer: url,
        authorization_endpoint: `${url}/auth`,
        token_endpoint: `${url}/token`,
        userinfo_endpoint: `${url}/me`,
        jwks_uri: `${url}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
      }),
    );
  });
  return issuer;
}

type User = Awaited<ReturnType<typeof signUp>>;

let s: SocialTest;
let down: Issuer;
let hung: Issuer;
beforeAll(async () => {
  down = await startIssuer('reset');
  hung = await startIssuer('hang');
  const provider = (url: string) => ({
    type: 'oidc' as const,
    clientId: CLIENT_ID,
    clientSecret: CLIENT_SECRET,
    discoveryUrl: url,
  });
  s = await startSocialTest({
    social: { requestTimeoutSec: 1, providers: { down: provider(down.url), hung: provider(hung.url) } } as never,
  });
});
afterAll(async () => {
  await s?.close();
  await down?.close();
  await hung?.close();
});

/** Every route that needs the provider, each answering its existing error for a provider it cannot reach. */
async function everyRoute(provider: string, user: User): Promise<void> {
  const signIn = await post(s.t.app, '/sign-in/social', { provider, callbackURL: '/dashboard' });
  expect([signIn.statusCode, signIn.json().code]).toEqual([404, 'PROVIDER_NOT_FOUND']);
  const back = await get(s.t.app, `/callback/${provider}?state=${'a'.repeat(32)}&code=c`);
  expect(back.headers.location).toBe(`${PUBLIC_URL}/api/auth/error?error=oauth_provider_not_found`);
  const link = await post(s.t.app, '/link-social', { provider, callbackURL: '/dashboard' }, { jar: user.jar });
  expect(link.json().code).toBe('PROVIDER_NOT_FOUND');
  const idToken = await post(s.t.app, '/sign-in/social', { provider, idToken: { token: 'a.b.c' } });
  expect(idToken.json().code).toBe('PROVIDER_NOT_FOUND');
  const refresh = await post(s.t.app, '/refresh-token', { providerId: provider }, { jar: user.jar });
  expect(refresh.json().code).toBe('PROVIDER_NOT_FOUND');
}

/** A signed-in user with an account at the provider (as if linked while it answered). */
async function userLinkedTo(provider: string): Promise<User> {
  const user = await signUp(s.t.app, { email: `linked-${provider}@discovery.example` });
  await s.t.ctx.sql.query(
    'INSERT INTO accounts (id, provider_id, account_id, user_id, created_at, updated_at) VALUES ($1, $2, $3, $4, now(), now())',
    [randomUUID(), provider, `sub-${provider}`, user.userId],
  );
  return user;
}

describe('a provider whose discovery fails is retried at most every social.discoveryRetrySec (30 s)', () => {
  it('while discovery fails, every route of the provider answers its error at once, without a new connection', async () => {
    expect(s.t.config.social.discoveryRetrySec).toBe(30);
    const user = await userLinkedTo('down');
    const first = await post(s.t.app, '/sign-in/social', { provider: 'down', callbackURL: '/dashboard' });
    expect(first.json().code).toBe('PROVIDER_NOT_FOUND');
    expect(down.connections).toBe(1);
    for (let round = 0; round < 3; round++) await everyRoute('down', user);
    expect(down.connections).toBe(1);

    // still within the wait: no retry
    s.t.clock.advance(29);
    await everyRoute('down', user);
    expect(down.connections).toBe(1);

    // the wait has passed: one request tries again (and fails again), the others keep answering at once
    s.t.clock.advance(2);
    await everyRoute('down', user);
    expect(down.connections).toBe(2);
    await everyRoute('down', user);
    expect(down.connections).toBe(2);

    // the provider is back: the first request after the wait discovers it, and the result is kept as before
    down.mode = 'serve';
    s.t.clock.advance(31);
    const ok = await post(s.t.app, '/sign-in/social', { provider: 'down', callbackURL: '/dashboard' });
    expect(ok.statusCode).toBe(200);
    expect(new URL(ok.json().url).origin).toBe(down.url);
    const discoveries = down.requests;
    expect(discoveries).toBe(1);
    for (let i = 0; i < 3; i++)
      expect((await post(s.t.app, '/sign-in/social', { provider: 'down', callbackURL: '/x' })).statusCode).toBe(200);
    s.t.clock.advance(3600);
    expect((await post(s.t.app, '/sign-in/social', { provider: 'down', callbackURL: '/x' })).statusCode).toBe(200);
    expect(down.requests).toBe(discoveries);
  });

  it('a provider that hangs costs one timeout; meanwhile and afterwards its routes answer without waiting', async () => {
    const user = await userLinkedTo('hung');
    const started = Date.now();
    // parallel first requests share the one discovery in flight
    const firsts = await Promise.all(
      Array.from({ length: 4 }, () => post(s.t.app, '/sign-in/social', { provider: 'hung', callbackURL: '/d' })),
    );
    for (const res of firsts) expect(res.json().code).toBe('PROVIDER_NOT_FOUND');
    expect(Date.now() - started).toBeGreaterThanOrEqual(900); // social.requestTimeoutSec: 1
    expect(hung.requests).toBe(1);
    const again = Date.now();
    await everyRoute('hung', user);
    expect(Date.now() - again).toBeLessThan(900);
    expect(hung.requests).toBe(1);
  });
});
