import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createLocalJWKSet, jwtVerify } from 'jose';
import { type ApiProcess, spawnApi } from '../../setup/api-process';
import { PUBLIC_URL } from '../../setup/app';
import { runCliWith } from '../../setup/cli-process';
import { CookieJar, PASSWORD, uniqueEmail } from '../../setup/fixtures';

/**
 * The provider in the real `node dist/main.js` (the compiled CommonJS loading the ESM-only library through Node's
 * require(esm)), over real HTTP, with its clients from an OIDC_CLIENTS_FILE: discovery, a sign-in, the code flow
 * with PKCE and the id token, and a start-up that says nothing about the library's defaults.
 */
const dir = mkdtempSync(join(tmpdir(), 'op-process-'));
const SECRET = 'process-client-secret-0123456789-abcdefgh';
const REDIRECT = 'https://rp.example.test/cb';
let api: ApiProcess;
let origin: string;

beforeAll(async () => {
  mkdirSync(join(dir, 'pages'));
  writeFileSync(
    join(dir, 'pages', 'index.html'),
    '<!doctype html><html><head><title>p</title></head><body></body></html>',
  );
  writeFileSync(
    join(dir, 'clients.yaml'),
    `clients:\n  - client_id: rp\n    client_secret: ${SECRET}\n    redirect_uris: [${REDIRECT}]\n    grant_types: [authorization_code, refresh_token]\n    first_party: true\n`,
  );
  api = await spawnApi({
    OIDC_PROVIDER_ENABLED: 'true',
    OIDC_CLIENTS_FILE: join(dir, 'clients.yaml'),
    HOSTED_PAGES_ENABLED: 'true',
    HOSTED_PAGES_DIR: join(dir, 'pages'),
  });
  origin = new URL(api.base).origin;
}, 60_000);
afterAll(async () => {
  await api?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** A URL of the service (PUBLIC_URL) as this test reaches the process. */
const local = (url: string) => url.replace(PUBLIC_URL, origin);

it('serves discovery, signs a user in with the code flow and PKCE, and the id token verifies', async () => {
  const meta = await (await fetch(`${api.base}/.well-known/openid-configuration`)).json();
  expect(meta.issuer).toBe(`${PUBLIC_URL}/api/auth`);

  const jar = new CookieJar();
  const email = uniqueEmail('process');
  const signUp = await fetch(`${api.base}/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
    body: JSON.stringify({ name: 'Process User', email, password: PASSWORD }),
  });
  expect(signUp.status).toBe(200);
  jar.store(signUp);
  const userId = (await signUp.json()).user.id;

  const verifier = randomBytes(32).toString('base64url');
  const query = new URLSearchParams({
    client_id: 'rp',
    redirect_uri: REDIRECT,
    response_type: 'code',
    scope: 'openid email',
    state: 'st-1',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
  });
  let next = `${meta.authorization_endpoint}?${query}`;
  for (let hop = 0; hop < 10 && !next.startsWith(REDIRECT); hop++) {
    const res = await fetch(local(next), { redirect: 'manual', headers: { cookie: jar.header() } });
    jar.store(res);
    expect([302, 303]).toContain(res.status);
    next = new URL(res.headers.get('location')!, next).href;
  }
  const back = new URL(next);
  expect(back.searchParams.get('state')).toBe('st-1');
  expect(back.searchParams.get('iss')).toBe(meta.issuer);

  const token = await fetch(local(meta.token_endpoint), {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from(`rp:${SECRET}`).toString('base64')}`,
    },
    body: new URLSearchParams({
      grant_type: 'authorization_code',
      code: back.searchParams.get('code')!,
      redirect_uri: REDIRECT,
      code_verifier: verifier,
    }),
  });
  expect(token.status).toBe(200);
  const tokens = await token.json();
  expect(tokens.refresh_token).toBeTruthy();
  const keys = createLocalJWKSet(await (await fetch(local(meta.jwks_uri))).json());
  const { payload } = await jwtVerify(tokens.id_token, keys, {
    issuer: meta.issuer,
    audience: 'rp',
    algorithms: ['RS256'],
  });
  expect(payload.sub).toBe(userId);

  const info = await fetch(local(meta.userinfo_endpoint), {
    headers: { authorization: `Bearer ${tokens.access_token}` },
  });
  expect(await info.json()).toMatchObject({ sub: userId, email });
});

it('starts without the library’s notices about defaults left unset', () => {
  expect(api.output()).not.toMatch(/oidc-provider (WARNING|NOTICE)/);
});

it('`cli config` masks the clients’ secrets', async () => {
  const res = await runCliWith(
    {
      OIDC_PROVIDER_ENABLED: 'true',
      OIDC_CLIENTS_FILE: join(dir, 'clients.yaml'),
      HOSTED_PAGES_ENABLED: 'true',
      HOSTED_PAGES_DIR: join(dir, 'pages'),
    },
    'config',
  );
  expect(res.code).toBe(0);
  expect(res.stdout).not.toContain(SECRET);
  const [client] = JSON.parse(res.stdout).oidcProvider.clients;
  expect(client).toMatchObject({ client_id: 'rp', client_secret: `${SECRET.slice(0, 4)}…(${SECRET.length} chars)` });
});
