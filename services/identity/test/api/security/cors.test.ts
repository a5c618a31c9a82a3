import { startTestApp, type TestApp, TRUSTED_ORIGIN } from '../../setup/app';
import { PASSWORD, signUp } from '../../setup/fixtures';

/**
 * CORS with credentials for trusted origins only, so a console on another trusted origin works with
 * its cookies; an untrusted origin gets no CORS header and its preflight is refused. Real HTTP: the browser's
 * view of CORS is headers on the wire.
 */
let t: TestApp;
let base: string;
beforeAll(async () => {
  t = await startTestApp({}, { TRUSTED_ORIGINS: `${TRUSTED_ORIGIN},https://*.console.example.test` });
  base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/auth`;
});
afterAll(() => t?.close());

const preflight = (path: string, origin: string, headers = 'content-type') =>
  fetch(`${base}${path}`, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': headers },
  });

describe('CORS preflight', () => {
  it.each([TRUSTED_ORIGIN, 'https://ops.console.example.test', 'http://localhost:3000'])(
    'a trusted origin (%s) may send JSON with credentials',
    async (origin) => {
      const res = await preflight('/sign-in/email', origin, 'Content-Type, X-Evil');
      expect(res.status).toBe(204);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
      expect(res.headers.get('access-control-allow-credentials')).toBe('true');
      expect(res.headers.get('access-control-allow-methods')).toBe('GET, POST');
      expect(res.headers.get('access-control-allow-headers')).toBe('content-type');
      expect(res.headers.get('vary')).toContain('Origin');
    },
  );

  it.each(['https://evil.example', 'null', 'https://console.example.test', 'https://app.example.test.evil.example'])(
    'an untrusted origin (%s) is refused and gets no CORS header',
    async (origin) => {
      const res = await preflight('/sign-in/email', origin);
      expect(res.status).toBe(403);
      expect((await res.json()).code).toBe('INVALID_ORIGIN');
      for (const header of [
        'access-control-allow-origin',
        'access-control-allow-credentials',
        'access-control-allow-methods',
      ])
        expect(res.headers.get(header)).toBeNull();
    },
  );
});

describe('CORS on real requests', () => {
  it('a trusted origin signs in and reads its session with cookies, and may read the answers', async () => {
    const u = await signUp(t.app);
    const signIn = await fetch(`${base}/sign-in/email`, {
      method: 'POST',
      headers: { origin: TRUSTED_ORIGIN, 'content-type': 'application/json' },
      body: JSON.stringify({ email: u.email, password: PASSWORD }),
    });
    expect(signIn.status).toBe(200);
    expect(signIn.headers.get('access-control-allow-origin')).toBe(TRUSTED_ORIGIN);
    expect(signIn.headers.get('access-control-allow-credentials')).toBe('true');
    const cookie = signIn.headers
      .getSetCookie()
      .map((c) => c.split(';')[0])
      .join('; ');
    const session = await fetch(`${base}/get-session`, { headers: { origin: TRUSTED_ORIGIN, cookie } });
    expect((await session.json()).user.email).toBe(u.email);
    expect(session.headers.get('access-control-allow-origin')).toBe(TRUSTED_ORIGIN);
  });

  it('an untrusted origin gets no CORS header (the browser hides the answer), and its POST is refused', async () => {
    const u = await signUp(t.app);
    const read = await fetch(`${base}/get-session`, {
      headers: { origin: 'https://evil.example', cookie: u.jar.header() },
    });
    expect(read.headers.get('access-control-allow-origin')).toBeNull();
    expect(read.headers.get('access-control-allow-credentials')).toBeNull();
    const write = await fetch(`${base}/sign-in/email`, {
      method: 'POST',
      headers: { origin: 'https://evil.example', 'content-type': 'application/json' },
      body: JSON.stringify({ email: u.email, password: PASSWORD }),
    });
    expect(write.status).toBe(403);
    expect((await write.json()).code).toBe('INVALID_ORIGIN');
    expect(write.headers.get('access-control-allow-origin')).toBeNull();
    expect(write.headers.getSetCookie()).toEqual([]);
  });

  it('requests without an Origin (servers) are unchanged: no CORS headers', async () => {
    const res = await fetch(`${base}/ok`);
    expect(res.status).toBe(200);
    expect(res.headers.get('access-control-allow-origin')).toBeNull();
  });
});
