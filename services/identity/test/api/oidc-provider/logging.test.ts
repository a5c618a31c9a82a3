import { PassThrough } from 'node:stream';
import { call, FIRST_PARTY, ISSUER, type OpTest, startOpTest } from './helpers';

/**
 * The provider's endpoints keep the service's request lines (docs/operations.md, Logs): one per request, naming the
 * URL as it came (the provider sees it under the issuer), its request id and status, with its secrets redacted.
 */
let s: OpTest;
const lines: Array<Record<string, unknown>> = [];
beforeAll(async () => {
  const sink = new PassThrough();
  let rest = '';
  sink.on('data', (chunk) => {
    const text = rest + String(chunk);
    const parts = text.split('\n');
    rest = parts.pop() ?? '';
    for (const part of parts) if (part.trim()) lines.push(JSON.parse(part));
  });
  s = await startOpTest({ LOG_LEVEL: 'info' }, sink);
});
afterAll(() => s?.close());

const completed = (requestId: string) => lines.filter((l) => l.msg === 'request completed' && l.reqId === requestId);

it('a request line names the URL as it came, the request id and the status the provider answered', async () => {
  const res = await call(s.app, `${ISSUER}/oauth2/token?probe=1`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-request-id': 'op-log-1' },
    body: 'grant_type=magic',
  });
  expect(res.statusCode).toBe(400);
  await new Promise((r) => setTimeout(r, 50));
  const [line] = completed('op-log-1');
  expect(line).toMatchObject({
    req: { method: 'POST', url: '/api/auth/oauth2/token?probe=1' },
    res: { statusCode: 400 },
  });
});

it('hints and codes in a URL are redacted', async () => {
  await call(s.app, `${ISSUER}/oauth2/end-session?id_token_hint=eyJsecret&x=1`, {
    headers: { 'x-request-id': 'op-log-2' },
  });
  await call(
    s.app,
    `${ISSUER}/oauth2/authorize?client_id=${FIRST_PARTY.client_id}&login_hint=ada@example.com&response_type=code`,
    { headers: { 'x-request-id': 'op-log-3' } },
  );
  await new Promise((r) => setTimeout(r, 50));
  expect((completed('op-log-2')[0].req as { url: string }).url).toBe(
    '/api/auth/oauth2/end-session?id_token_hint=[redacted]&x=1',
  );
  expect((completed('op-log-3')[0].req as { url: string }).url).toContain('login_hint=[redacted]');
  expect(JSON.stringify(lines)).not.toContain('ada@example.com');
});
