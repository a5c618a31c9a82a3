import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Keeps connections open but reads nothing (a stopped engine process: the kernel buffers), until `restore`. */
  hang(): void;
  /** Drops every open connection and stops listening until `restore` (the engine behind "goes away"). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A loopback TCP relay to 127.0.0.1:`targetPort` that a test can cut, to fault an engine under a running app. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
  let hung = false;
  const server = createServer((client) => {
    if (down) return void client.destroy();
    const upstream = connect(targetPort, '127.0.0.1');
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
      a.pipe(b);
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
