import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Keeps connections open but reads nothing (a stopped engine process: the kernel buffers), until `restore`. */
  hang(): void;
  /** Drops every open connection and stops listening until `restore` (the engine behind "goes away"). */
  cut(): void;
  restore(): void;
  /**
   * Delays every chunk by `ms` in each direction from now on (order kept), so a round trip takes 2 × `ms` more:
   * a slow network to the engine (this kernel has no netem). 0 relays at once again.
   */
  delay(ms: number): void;
  close(): Promise<void>;
}

/** A loopback TCP relay to 127.0.0.1:`targetPort` that a test can cut, to fault an engine under a running app. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  let hung = false;
  let delayMs = 0;
  const server = createServer((client) => {
    if (down) return void client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
    // As the engines' own clients do (pg, ioredis): a relayed chunk goes out at once, never held back by Nagle's
    // algorithm waiting for an ACK that the other side delays (40 ms per round trip on Linux).
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    for (const [a, b] of [
      [client, upstream],
      [upstream, client],
    ]) {
      open.add(a);
      a.on('error', () => b.destroy());
      a.on('close', () => {
        open.delete(a);
        b.destroy();
      });
      if (hung) a.pause();
      const relay = delayedRelay(b, () => delayMs);
      a.on('data', (chunk: Buffer) => relay.write(chunk));
      a.on('end', () => relay.end());
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const port = (server.address() as { port: number }).port;
  // Like a stopped engine: open connections reset, new ones refused (the port stops listening).
  const cut = () => {
    down = true;
    for (const s of open) s.destroy();
    if (server.listening) server.close();
  };
  return {
    port,
    cut,
    hang: () => {
      hung = true;
      for (const s of open) s.pause();
    },
    delay: (ms) => {
      delayMs = ms;
    },
    restore: () => {
      down = false;
      hung = false;
      for (const s of open) s.resume();
      if (!server.listening) server.listen(port, '127.0.0.1');
    },
    close: () =>
      new Promise<void>((done) => {
        down = true;
        for (const s of open) s.destroy();
        if (server.listening) server.close(() => done());
        else done();
      }),
  };
}

/** Writes to `to` each chunk `delay()` ms after it came, in the order they came (a change of delay keeps it). */
function delayedRelay(to: Socket, delay: () => number) {
  const queue: Array<{ due: number; chunk: Buffer | null }> = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    const now = Date.now();
    while (queue.length > 0 && queue[0].due <= now) {
      const { chunk } = queue.shift()!;
      if (to.destroyed) continue;
      if (chunk) to.write(chunk);
      else to.end();
    }
    if (queue.length > 0) schedule(queue[0].due - now);
  };
  const schedule = (ms: number) => {
    scheduled = true;
    setTimeout(flush, Math.max(0, ms));
  };
  const push = (chunk: Buffer | null) => {
    if (queue.length === 0 && delay() === 0) {
      if (!to.destroyed) chunk ? to.write(chunk) : to.end();
      return;
    }
    // Never before the chunk ahead of it.
    const due = Math.max(Date.now() + delay(), queue.at(-1)?.due ?? 0);
    queue.push({ due, chunk });
    if (!scheduled) schedule(queue[0].due - Date.now());
  };
  return { write: (chunk: Buffer) => push(chunk), end: () => push(null) };
}
