import { once } from 'node:events';
import { createServer, type Server } from 'node:http';

export type VerifierMode = 'success' | 'failure' | 'error' | 'hang' | 'not-json' | { score: number };

export interface VerifyRequest {
  contentType: string | undefined;
  fields: Record<string, string>;
}

/**
 * A local stand-in for a provider's siteverify endpoint (real HTTP on loopback): records each request and
 * answers as `mode` says: a pass, a refusal, a 500, no answer at all, a non-JSON body, or a v3 score.
 */
export class VerifierServer {
  mode: VerifierMode = 'success';
  readonly requests: VerifyRequest[] = [];
  private server!: Server;
  url = '';

  async start(): Promise<this> {
    this.server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk) => {
        body += chunk;
      });
      req.on('end', () => {
        const type = req.headers['content-type'];
        const fields = type?.startsWith('application/json')
          ? (JSON.parse(body) as Record<string, string>)
          : Object.fromEntries(new URLSearchParams(body));
        this.requests.push({ contentType: type, fields });
        this.answer(res);
      });
    });
    this.server.listen(0, '127.0.0.1');
    await once(this.server, 'listening');
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/siteverify`;
    return this;
  }

  private answer(res: import('node:http').ServerResponse): void {
    const json = (status: number, value: object) =>
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(value));
    const mode = this.mode;
    if (mode === 'hang') return; // never answers: the service's timeout decides
    if (mode === 'error') return void json(500, { error: 'internal' });
    if (mode === 'not-json') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>');
    if (mode === 'failure') return void json(200, { success: false, 'error-codes': ['invalid-input-response'] });
    if (typeof mode === 'object') return void json(200, { success: true, score: mode.score, action: 'login' });
    json(200, { success: true, challenge_ts: new Date().toISOString(), hostname: 'localhost' });
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    this.server.close();
    await once(this.server, 'close');
  }
}
