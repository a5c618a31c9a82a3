import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { noBodyComing } from './expect-continue';

/** How long a closing connection keeps reading (and dropping) the rest of a refused body, at most. */
export const LINGER_MS = 10_000;

type ClosableSocket = Socket & { destroySoon?: () => void };
/** The request a socket's close waits for: the latest one answered before its body was complete. */
const unfinished = new WeakMap<Socket, IncomingMessage>();

/**
 * A body over the limit is refused before it is read: with 413 at once when its Content-Length says so, or as
 * soon as a chunked body grows past the limit (Fastify's body reader). Fastify then answers with
 * `Connection: close`, and Node closes the socket as soon as the answer is written, while the client is still
 * sending: the client's next write meets a reset, and most clients (Node's fetch and http, a raw socket) fail on
 * that write without ever reading the 413 that already arrived.
 *
 * So a connection answered before its request body was complete closes the way RFC 9112 §9.6 asks: the answer
 * is written, the rest of the body is read and dropped, and the socket closes once the body has ended, the
 * client has gone, or LINGER_MS has passed, whichever comes first. A connection that stays open (keep-alive)
 * is not touched: Node already reads and drops the unread body before the next request.
 */
export function registerLingeringClose(app: FastifyInstance): void {
  app.addHook('onSend', (request, _reply, payload, done) => {
    if (!request.raw.complete && !noBodyComing.has(request.raw)) lingerOnClose(request.raw);
    done(null, payload);
  });
}

function lingerOnClose(request: IncomingMessage): void {
  const socket = request.socket as ClosableSocket | null;
  // destroySoon is how Node's HTTP server closes a connection after its last answer (resOnFinish).
  if (!socket || typeof socket.destroySoon !== 'function') return;
  const installed = unfinished.has(socket);
  unfinished.set(socket, request);
  if (installed) return;
  const closeNow = socket.destroySoon;
  socket.destroySoon = () => {
    const pending = unfinished.get(socket);
    if (!pending || pending.complete) return closeNow.call(socket);
    const timer = setTimeout(() => socket.destroy(), LINGER_MS).unref();
    socket.once('close', () => clearTimeout(timer));
    pending.once('end', () => {
      clearTimeout(timer);
      closeNow.call(socket);
    });
    // Node dumps an unread body once the answer is done; make sure the rest flows (and is dropped) either way.
    pending.resume();
  };
}
