import { connect } from 'node:net';
import { LINGER_MS } from '../../../src/http/lingering-close';
import { type ApiProcess, spawnApi } from '../../setup/api-process';
import { PUBLIC_URL } from '../../setup/app';

/**
 * A body over the limit (64 KiB) is answered 413 before it is read, and the client can read that answer: the
 * real API process (`node dist/main.js`), a real socket, a client still sending when the answer comes.
 */
let api: ApiProcess;
beforeAll(async () => {
  api = await spawnApi();
}, 60_000);
afterAll(() => api?.stop());

const MiB = 1024 * 1024;

interface Exchange {
  response: string;
  /** The first socket error the client met (a reset or a broken pipe while it was still sending), if any. */
  error?: string;
}

/** Sends `head` then `body` on a fresh socket and reads until the server closes it. */
function exchange(head: string, body: Buffer[]): Promise<Exchange> {
  const { port } = new URL(api.base);
  return new Promise((resolve) => {
    const socket = connect(Number(port), '127.0.0.1');
    const chunks: Buffer[] = [];
    let error: string | undefined;
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error ??= e.code ?? e.message;
    });
    socket.on('close', () => resolve({ response: Buffer.concat(chunks).toString('latin1'), error }));
    socket.write(head);
    for (const part of body) socket.write(part);
  });
}

function expect413({ response, error }: Exchange) {
  expect(error).toBeUndefined();
  const [head, payload] = response.split('\r\n\r\n');
  expect(head.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
  expect(head.toLowerCase()).toContain('connection: close');
  expect(JSON.parse(payload)).toEqual({ code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large' });
}

const headers = (extra: string) =>
  `POST /api/auth/sign-up/email HTTP/1.1\r\nHost: 127.0.0.1\r\nOrigin: ${PUBLIC_URL}\r\n` +
  `Content-Type: application/json\r\n${extra}\r\n`;

describe('a body over the limit', () => {
  it('with a Content-Length of 16 MiB: the client reads 413 PAYLOAD_TOO_LARGE, no reset', async () => {
    const body = Buffer.alloc(16 * MiB, 'a');
    for (let i = 0; i < 3; i++) expect413(await exchange(headers(`Content-Length: ${body.length}\r\n`), [body]));
  });

  it('chunked, growing past the limit: the client reads 413 PAYLOAD_TOO_LARGE, no reset', async () => {
    const chunk = Buffer.alloc(256 * 1024, 'a');
    const parts: Buffer[] = [];
    for (let i = 0; i < 64; i++)
      parts.push(Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n'));
    parts.push(Buffer.from('0\r\n\r\n'));
    for (let i = 0; i < 3; i++) expect413(await exchange(headers('Transfer-Encoding: chunked\r\n'), parts));
  });

  it('from a client that stops sending: the 413 arrives, and the server closes after LINGER_MS', async () => {
    const started = Date.now();
    const stalled = await exchange(headers(`Content-Length: ${16 * MiB}\r\n`), [Buffer.alloc(MiB, 'a')]);
    const waited = Date.now() - started;
    expect(stalled.response.split('\r\n')[0]).toBe('HTTP/1.1 413 Payload Too Large');
    expect(waited).toBeGreaterThanOrEqual(LINGER_MS - 500);
    expect(waited).toBeLessThan(LINGER_MS + 5_000);
  }, 30_000);

  it('announced with Expect: 100-continue: 413 instead of 100 Continue, and the body is never asked for', async () => {
    const started = Date.now();
    const asked = await exchange(headers(`Content-Length: ${16 * MiB}\r\nExpect: 100-continue\r\n`), []);
    expect413(asked);
    expect(asked.response).not.toContain('100 Continue');
    expect(Date.now() - started).toBeLessThan(LINGER_MS / 2); // closed at once: no body to wait for
    // A body that fits is still asked for.
    const fits = await exchange(headers('Content-Length: 2\r\nExpect: 100-continue\r\nConnection: close\r\n'), [
      Buffer.from('{}'),
    ]);
    expect(fits.response.split('\r\n')[0]).toBe('HTTP/1.1 100 Continue');
  }, 30_000);

  it("through Node's fetch: a 413 answer, not a failed request", async () => {
    for (let i = 0; i < 3; i++) {
      const res = await fetch(`${api.base}/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: PUBLIC_URL },
        body: Buffer.alloc(16 * MiB, 'a'),
      });
      expect([res.status, await res.json()]).toEqual([
        413,
        { code: 'PAYLOAD_TOO_LARGE', message: 'Request body too large' },
      ]);
    }
    expect((await fetch(`${api.base}/ok`)).status).toBe(200);
  });
});
