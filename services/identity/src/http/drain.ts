import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { closeListener } from './listener-close';

/** The instance's shutdown state: `draining` is set when the drain begins (SIGTERM) and never cleared. */
export interface Lifecycle {
  draining: boolean;
}

/**
 * How long, at most, a connection accepted during the drain may take to send its first request once the listener
 * has closed: it is then answered (with `Connection: close`) rather than closed under the client's feet. A client
 * writes its request as soon as it has connected; this covers a busy machine.
 */
export const FIRST_REQUEST_GRACE_MS = 1000;

/**
 * While the instance drains, an answer carries `Connection: close`: Node closes the connection once the answer is
 * written, and the client opens its next one elsewhere (the balancer no longer sends here). The connection is
 * closed after an answer, never under a request, and the client learns it in that answer, before it could reuse it.
 *
 * Code that writes an answer itself, outside Fastify's reply, calls this before writing the head.
 */
export function closeWhenDraining(lifecycle: Lifecycle, response: ServerResponse): void {
  if (lifecycle.draining && !response.headersSent) response.setHeader('connection', 'close');
}

/** Every answer Fastify sends (errors and 404s included) goes through `closeWhenDraining`. */
export function registerDrainClose(app: FastifyInstance, lifecycle: Lifecycle): void {
  app.addHook('onSend', (_request, reply, payload, done) => {
    closeWhenDraining(lifecycle, reply.raw);
    done(null, payload);
  });
}

export interface Drain {
  /**
   * The end of the drain: stop accepting (serving what the kernel had already accepted), let the connections just
   * accepted send their request, close the idle ones, finish the requests in flight, then close the app (its hooks).
   */
  close(): Promise<void>;
}

/**
 * Begins the drain: readiness answers 503 (`lifecycle.draining`), every answer closes its connection, and the
 * connections accepted from now on are followed until they send a request.
 *
 * At `close`, the listener closes first, on its own, without resetting a connection the kernel completed for it
 * (`closeListener`, http/listener-close.ts): the connections already in its accept queue are accepted and served,
 * and a connection attempt from then on is refused, which a client knows it may retry elsewhere. A connection
 * accepted during the drain that has not sent its request yet gets up to `FIRST_REQUEST_GRACE_MS` to do so. Only
 * then are the idle connections closed: between two requests, on a keep-alive connection whose client has had no
 * answer during the drain to tell it to go. Fastify's close then waits for the requests in flight, and serves rather
 * than refuses one that still arrives on an open connection (`return503OnClosing: false`, src/app.ts).
 */
export function beginDrain(
  app: FastifyInstance,
  lifecycle: Lifecycle,
  log: { info(fields: object, msg: string): void; warn(fields: object, msg: string): void },
): Drain {
  lifecycle.draining = true;
  const server = app.server;
  const waiting = new Set<Socket>();
  const onConnection = (socket: Socket) => {
    waiting.add(socket);
    socket.once('close', () => waiting.delete(socket));
  };
  const onRequest = (request: IncomingMessage) => waiting.delete(request.socket);
  server.on('connection', onConnection);
  server.on('request', onRequest);
  return {
    async close() {
      if (server.listening) {
        // The listener alone: http.Server's close would also close idle connections at once.
        await closeListener(server, log);
        const until = Date.now() + FIRST_REQUEST_GRACE_MS;
        while (waiting.size > 0 && Date.now() < until) await new Promise((done) => setTimeout(done, 10));
        if (waiting.size > 0)
          log.warn({ connections: waiting.size }, 'closing connections that sent no request during the drain');
        server.closeIdleConnections();
      }
      server.off('connection', onConnection);
      server.off('request', onRequest);
      await app.close();
    },
  };
}
