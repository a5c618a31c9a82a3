import { createRemoteJWKSet, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { PUBLIC_URL, startTestApp, TEST_SECRET, type TestApp } from '../../setup/app';
import { runCli } from '../../setup/cli-process';
import { get, post, signUp } from '../../setup/fixtures';

/**
 * A JWT from GET /token verifies with jose against GET /jwks only, over real HTTP on a loopback
 * port, before and after a key rotation; the old key stays published until its tokens have expired.
 */
let t: TestApp;
let jwksUrl: URL;
beforeAll(async () => {
  t = await startTestApp();
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as { port: number };
  jwksUrl = new URL(`http://127.0.0.1:${port}/api/auth/jwks`);
});
afterAll(() => t.close());

/** A verifier as an internal service would run it: only the JWKS URL, no other call to the service. */
const remoteVerifier = () => createRemoteJWKSet(jwksUrl, { cooldownDuration: 0 });
const verify = (token: string, jwks = remoteVerifier()) =>
  jwtVerify(token, jwks, { issuer: PUBLIC_URL, audience: PUBLIC_URL, currentDate: new Date(t.clock.now()) });
const newToken = async (jar: Parameters<typeof get>[2]) => {
  const res = await get(t.app, '/token', jar);
  expect(res.statusCode).toBe(200);
  return res.json().token as string;
};
const publishedKids = async () =>
  ((await (await fetch(jwksUrl)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid);

describe('GET /token and GET /jwks', () => {
  it('signs a short-lived EdDSA JWT for the cookie session with the session and user claims', async () => {
    const u = await signUp(t.app);
    const token = await newToken({ jar: u.jar });
    const { payload, protectedHeader } = await verify(token);
    const session = (await get(t.app, '/get-session', { bearer: u.token })).json().session;
    expect(protectedHeader).toEqual({ alg: 'EdDSA', kid: expect.any(String), typ: 'JWT' });
    expect(payload).toEqual({
      iss: PUBLIC_URL,
      aud: PUBLIC_URL,
      sub: u.userId,
      sid: session.id,
      email: u.email,
      role: 'user',
      activeOrganizationId: null,
      activeOrganizationRole: null,
      impersonatedBy: null,
      iat: Math.floor(t.clock.now() / 1000),
      exp: Math.floor(t.clock.now() / 1000) + 900,
      jti: expect.stringMatching(/^[A-Za-z0-9]{24}$/),
    });
    expect((await publishedKids()).includes(protectedHeader.kid!)).toBe(true);
  });

  it('serves a Bearer session too, and carries the active organization and the role in it', async () => {
    const u = await signUp(t.app);
    const org = await post(t.app, '/organization/create', { name: 'Acme', slug: `acme-${u.userId}` }, { jar: u.jar });
    expect(org.statusCode).toBe(200);
    const { payload } = await verify(await newToken({ bearer: u.token }));
    expect([payload.activeOrganizationId, payload.activeOrganizationRole]).toEqual([org.json().id, 'owner']);
  });

  it('refuses a request without a live session (401) and a revoked one', async () => {
    expect((await get(t.app, '/token')).json()).toEqual({ code: 'UNAUTHORIZED', message: 'Unauthorized' });
    const u = await signUp(t.app);
    await post(t.app, '/sign-out', undefined, { jar: u.jar.clone() });
    expect((await get(t.app, '/token', { bearer: u.token })).statusCode).toBe(401);
  });

  it('never outlives the session', async () => {
    const u = await signUp(t.app);
    const session = (await get(t.app, '/get-session', { bearer: u.token })).json().session;
    const skip = Date.parse(session.expiresAt) / 1000 - t.clock.now() / 1000 - 60; // 60 s of session left
    t.clock.advance(skip);
    try {
      const { payload } = await verify(await newToken({ bearer: u.token }));
      expect(payload.exp).toBe(Math.floor(Date.parse(session.expiresAt) / 1000));
    } finally {
      t.clock.advance(-skip);
    }
  });

  it('refuses a token whose signature, algorithm or claims were changed', async () => {
    const u = await signUp(t.app);
    const token = await newToken({ jar: u.jar });
    const [h, p, s] = token.split('.');
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
    const edited = Buffer.from(JSON.stringify({ ...claims, role: 'admin' })).toString('base64url');
    await expect(verify(`${h}.${edited}.${s}`)).rejects.toBeInstanceOf(errors.JWSSignatureVerificationFailed);
    const none = Buffer.from(JSON.stringify({ alg: 'none', kid: decodeProtectedHeader(token).kid })).toString(
      'base64url',
    );
    await expect(verify(`${none}.${p}.`)).rejects.toThrow();
  });

  it('keeps private keys encrypted at rest (AES-256-GCM under AUTH_SECRET)', async () => {
    await newToken({ jar: (await signUp(t.app)).jar });
    const rows = await t.ctx.sql.query<{ id: string; private_key: string; public_key: string }>(
      'SELECT id, private_key, public_key FROM jwks',
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.private_key).toMatch(/^v1\.[\w-]+\.[\w-]+$/); // crypto/sealed.ts: v1.<iv>.<ciphertext+tag>
      expect(row.private_key).not.toContain('"d"');
      expect(JSON.parse(row.public_key).d).toBeUndefined();
      expect(row.private_key).not.toContain(TEST_SECRET);
    }
  });

  it('rotates: new tokens use the new key, old tokens verify until they expire, then the old key is dropped', async () => {
    const u = await signUp(t.app);
    const verifier = remoteVerifier();
    const before = await newToken({ jar: u.jar });
    const oldKid = decodeProtectedHeader(before).kid!;
    await verify(before, verifier);

    const newKid = await t.ctx.features.jwt.keys.rotate();
    expect(newKid).not.toBe(oldKid);
    const after = await newToken({ jar: u.jar });
    expect(decodeProtectedHeader(after).kid).toBe(newKid);
    expect((await verify(after, verifier)).payload.sub).toBe(u.userId); // unknown kid: the verifier refetches
    expect((await verify(before, verifier)).payload.sub).toBe(u.userId); // old key still published
    expect(await publishedKids()).toEqual(expect.arrayContaining([oldKid, newKid]));

    // The old key's last tokens expire 900 s after its retirement (+ refresh interval and skew): still there
    // at 900 s, gone after the retention, and deleted from PostgreSQL by the periodic refresh.
    t.clock.advance(900);
    await t.ctx.features.jwt.keys.refresh();
    expect(await publishedKids()).toContain(oldKid);
    t.clock.advance(t.ctx.features.jwt.keys.retentionMs / 1000 - 900 + 1);
    await t.ctx.features.jwt.keys.refresh();
    const kids = await publishedKids();
    expect(kids).toContain(newKid);
    expect(kids).not.toContain(oldKid);
    expect(await t.ctx.sql.query('SELECT id FROM jwks WHERE id = $1', [oldKid])).toEqual([]);
    await expect(verify(before, remoteVerifier())).rejects.toThrow();
    t.clock.advance(-(t.ctx.features.jwt.keys.retentionMs / 1000 + 1)); // back to real time for the next tests
  });
});

describe('several instances', () => {
  it('two instances starting together with a new algorithm create one key, not two', async () => {
    const [a, b] = await Promise.all([startTestApp({}, { JWT_ALG: 'ES256' }), startTestApp({}, { JWT_ALG: 'ES256' })]);
    try {
      const [ka, kb] = await Promise.all([a.ctx.features.jwt.keys.signingKey(), b.ctx.features.jwt.keys.signingKey()]);
      expect(ka.kid).toBe(kb.kid);
      expect(ka.alg).toBe('ES256');
      const active = await a.ctx.sql.query('SELECT id FROM jwks WHERE retired_at IS NULL');
      expect(active).toEqual([{ id: ka.kid }]);
      const u = await signUp(a.app);
      const token = await newTokenFrom(b, u.token);
      expect(decodeProtectedHeader(token)).toEqual({ alg: 'ES256', kid: ka.kid, typ: 'JWT' });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });

  it('a rotation on one instance reaches the others at once (Redis notice)', async () => {
    const [a, b] = await Promise.all([startTestApp(), startTestApp()]);
    try {
      await b.ctx.features.jwt.keys.watch();
      await b.ctx.features.jwt.keys.signingKey();
      const kid = await a.ctx.features.jwt.keys.rotate();
      const deadline = Date.now() + 5000;
      while ((await b.ctx.features.jwt.keys.signingKey()).kid !== kid && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect((await b.ctx.features.jwt.keys.signingKey()).kid).toBe(kid);
      expect((await b.ctx.features.jwt.keys.publicSet()).keys.map((k) => k.kid)).toContain(kid);
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});

describe('cli jwks:rotate', () => {
  it('rotates from the command line; a running instance hears of it and signs with the new key', async () => {
    await t.ctx.features.jwt.keys.watch();
    const u = await signUp(t.app);
    const before = decodeProtectedHeader(await newToken({ jar: u.jar })).kid;
    const { code, stdout } = await runCli('jwks:rotate');
    expect(code).toBe(0);
    const kid = /new signing key: ([0-9a-f-]{36})/.exec(stdout)?.[1];
    expect(kid).toBeDefined();
    expect(kid).not.toBe(before);
    const deadline = Date.now() + 5000;
    while (!(await publishedKids()).includes(kid!) && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(decodeProtectedHeader(await newToken({ jar: u.jar })).kid).toBe(kid);
    expect(await publishedKids()).toEqual(expect.arrayContaining([before, kid]));
  });
});

async function newTokenFrom(app: TestApp, bearer: string): Promise<string> {
  const res = await get(app.app, '/token', { bearer });
  expect(res.statusCode).toBe(200);
  return res.json().token;
}
