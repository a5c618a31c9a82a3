import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Requests told not to send their body (no `100 Continue`): there is no rest of a body to wait for. */
export const noBodyComing = new WeakSet<IncomingMessage>();

/**
 * A client that sends `Expect: 100-continue` (curl does for bodies over 1 MiB) waits for `100 Continue` before it
 * sends the body. Node answers 100 at once unless the server listens for `checkContinue`; here the interim answer
 * is given only when the announced Content-Length fits the body limit. An oversized request goes on to the routes
 * without it, is answered 413 before any of its body is sent, and the client never sends the body at all.
 */
export function registerExpectContinue(app: FastifyInstance): void {
  const limit = app.initialConfig.bodyLimit ?? 1024 * 1024;
  const server = app.server;
  server.on('checkContinue', (request: IncomingMessage, response: ServerResponse) => {
    if (Number(request.headers['content-length']) > limit) noBodyComing.add(request);
    else response.writeContinue();
    server.emit('request', request, response);
  });
}
