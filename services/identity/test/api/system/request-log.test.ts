import { PassThrough } from 'node:stream';
import { listenOnLoopback, startTestApp, type TestApp } from '../../setup/app';
import { DATA_COOKIE, PASSWORD, signUp, TOKEN_COOKIE } from '../../setup/fixtures';

/**
 * The request log (docs/operations.md, "Logs"): one line per request when it is answered, at info; the line of
 * its arrival at debug. Successful lookups made at machine rates (get-session on either path, introspection, the
 * probes) get no line at info unless LOG_LOOKUPS is on; their failures do.
 */
interface Logged {
  t: TestApp;
  base: string;
  lines(): Array<Record<string, unknown>>;
}

async function start(env: Record<string, string>): Promise<Logged> {
  const sink = new PassThrough();
  let text = '';
  sink.on('data', (chunk) => (text += chunk));
  const t = await startTestApp({}, { SERVICE_API_KEY: 's'.repeat(40), ...env }, sink);
  const base = await listenOnLoopback(t.app);
  return {
    t,
    base,
    lines: () =>
      text
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

/**
 * A signed-in user's cookies: both (the fast path answers) and the token alone (Fastify and Redis answer). The
 * cache cookie is the sign-up answer's: a lookup within the second after it, carrying none, is not sent it again.
 */
async function cookiesOf(logged: Logged) {
  const user = await signUp(logged.t.app);
  const token = `${TOKEN_COOKIE}=${user.jar.get(TOKEN_COOKIE)}`;
  const data = user.jar.get(DATA_COOKIE);
  expect(data).toEqual(expect.any(String));
  return { user, token, both: `${token}; ${DATA_COOKIE}=${data}` };
}

const byId = (logged: Logged, id: string) => logged.lines().filter((l) => l.reqId === id);

/** Introspection as an internal service calls it (fetch would send browser-only Fetch-Metadata headers). */
async function introspect(logged: Logged, id: string, key: string, token: string): Promise<number> {
  const res = await logged.t.app.inject({
    method: 'POST',
    url: '/api/auth/introspect',
    headers: { 'content-type': 'application/json', 'x-api-key': key, 'x-request-id': id },
    payload: { token },
  });
  await new Promise((r) => setTimeout(r, 50));
  return res.statusCode;
}

async function send(logged: Logged, path: string, id: string, init: RequestInit = {}): Promise<number> {
  const res = await fetch(`${logged.base}${path}`, {
    ...init,
    headers: { ...(init.headers as Record<string, string>), 'x-request-id': id },
  });
  await res.text();
  // pino writes after the answer is sent: let the line reach the sink.
  await new Promise((r) => setTimeout(r, 50));
  return res.status;
}

describe('at info, the default', () => {
  let logged: Logged;
  beforeAll(async () => {
    logged = await start({ LOG_LEVEL: 'info' });
  });
  afterAll(() => logged?.t.close());

  it('a sign-in gets one line when it is answered: the request, the answer and the time taken', async () => {
    const { user } = await cookiesOf(logged);
    const status = await send(logged, '/sign-in/email', 'sign-in-line', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ email: user.email, password: PASSWORD }),
    });
    expect(status).toBe(200);
    const lines = byId(logged, 'sign-in-line');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 30,
      msg: 'request completed',
      req: { method: 'POST', url: '/api/auth/sign-in/email', remoteAddress: '127.0.0.1' },
      res: { statusCode: 200 },
    });
    expect(lines[0].responseTime).toEqual(expect.any(Number));
  });

  it('successful lookups get no line: get-session on both paths, introspection, the probes', async () => {
    const { token, both, user } = await cookiesOf(logged);
    expect(await send(logged, '/get-session', 'lookup-fast', { headers: { cookie: both } })).toBe(200);
    expect(await send(logged, '/get-session', 'lookup-redis', { headers: { cookie: token } })).toBe(200);
    expect(await introspect(logged, 'lookup-introspect', 's'.repeat(40), user.token)).toBe(200);
    for (const path of ['/ok', '/health/live', '/health/ready'])
      expect(await send(logged, path, `lookup-${path}`)).toBe(200);
    for (const id of ['lookup-fast', 'lookup-redis', 'lookup-introspect', 'lookup-/ok', 'lookup-/health/live'])
      expect([id, byId(logged, id)]).toEqual([id, []]);
  });

  it('a lookup that fails gets its line', async () => {
    expect(await introspect(logged, 'lookup-refused', 'x'.repeat(40), 'nope')).toBe(403);
    expect(byId(logged, 'lookup-refused')).toEqual([
      expect.objectContaining({ level: 30, msg: 'request completed', res: { statusCode: 403 } }),
    ]);
  });
});

describe('with LOG_LOOKUPS', () => {
  let logged: Logged;
  beforeAll(async () => {
    logged = await start({ LOG_LEVEL: 'info', LOG_LOOKUPS: 'true' });
  });
  afterAll(() => logged?.t.close());

  it('every successful lookup gets its line too, on both get-session paths', async () => {
    const { token, both } = await cookiesOf(logged);
    expect(await send(logged, '/get-session', 'all-fast', { headers: { cookie: both } })).toBe(200);
    expect(await send(logged, '/get-session', 'all-redis', { headers: { cookie: token } })).toBe(200);
    for (const id of ['all-fast', 'all-redis'])
      expect(byId(logged, id)).toEqual([
        expect.objectContaining({ level: 30, msg: 'request completed', res: { statusCode: 200 } }),
      ]);
  });
});

describe('at debug', () => {
  let logged: Logged;
  beforeAll(async () => {
    logged = await start({ LOG_LEVEL: 'debug' });
  });
  afterAll(() => logged?.t.close());

  it('the arrival of a request gets a line of its own, and successful lookups are there', async () => {
    expect(await send(logged, '/ok', 'debug-ok')).toBe(200);
    const lines = byId(logged, 'debug-ok');
    expect(lines.map((l) => [l.level, l.msg])).toEqual([
      [20, 'incoming request'],
      [20, 'request completed'],
    ]);
  });
});
