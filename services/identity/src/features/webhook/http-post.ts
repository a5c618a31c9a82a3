import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP } from 'node:net';
import { hostOf, type TargetPolicy } from '../../shared/target-policy';

export interface PostResult {
  /** The answer's status; null when none came (refused, unreachable, timed out). */
  status: number | null;
  ok: boolean;
  durationMs: number;
  /** Why it failed, short (never the response body). */
  error: string | null;
}

/** The answer's body is read and dropped, up to this much: a receiver cannot make us hold a large answer. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * One POST of a webhook message. Succeeds on a 2xx answer only: a redirect is not followed (it is a failure: the
 * URL is the operator's to change), and neither is anything else. The connection goes only where the target
 * policy allows, judged on the addresses the name resolves to when connecting (the request's `lookup`), and on
 * an address literal before connecting. The whole attempt (connect, send, answer) is bounded by `timeoutMs`.
 */
export function postMessage(
  target: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
  policy: TargetPolicy,
): Promise<PostResult> {
  const started = performance.now();
  const result = (status: number | null, error: string | null): PostResult => ({
    status,
    ok: status !== null && status >= 200 && status < 300,
    durationMs: Math.round(performance.now() - started),
    error,
  });
  const url = new URL(target);
  const problem = policy.urlProblem(target);
  if (problem) return Promise.resolve(result(null, `refused: URL ${problem}`));
  const host = hostOf(url);
  if (isIP(host) && !policy.hostAllowed(url)) {
    const refused = policy.addressProblem(host);
    if (refused) return Promise.resolve(result(null, `refused: ${refused}`));
  }
  const send: typeof httpRequest = url.protocol === 'https:' ? (httpsRequest as typeof httpRequest) : httpRequest;
  return new Promise((done) => {
    let settled = false;
    const finish = (status: number | null, error: string | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      done(result(status, error));
    };
    const req = send(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
        lookup: policy.lookupFor(url),
        agent: false,
      },
      (res: IncomingMessage) => {
        let read = 0;
        res.on('data', (chunk: Buffer) => {
          read += chunk.length;
          if (read > MAX_ANSWER_BYTES) res.destroy();
        });
        const status = res.statusCode ?? null;
        const error =
          status === null || (status >= 200 && status < 300)
            ? null
            : status >= 300 && status < 400
              ? `redirect (${status}) not followed`
              : `answered ${status}`;
        res.on('end', () => finish(status, error));
        res.on('close', () => finish(status, error));
        res.on('error', () => finish(status, error));
      },
    );
    const timer = setTimeout(() => {
      finish(null, `timed out after ${timeoutMs} ms`);
      req.destroy();
    }, timeoutMs);
    req.on('error', (error) => finish(null, shortError(error)));
    req.end(body);
  });
}

function shortError(error: Error): string {
  const code = (error as NodeJS.ErrnoException).code;
  const text = error.message.slice(0, 300);
  return code && !text.includes(code) ? `${code}: ${text}` : text;
}
