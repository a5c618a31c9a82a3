import { connect, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Drops every open connection and refuses new ones until `restore` (the engine behind "goes away"). */
  cut(): void;
  restore(): void;
  close(): Promise<void>;
}

/** A loopback TCP relay to 127.0.0.1:`targetPort` that a test can cut, to fault an engine under a running app. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const open = new Set<Socket>();
  let down = false;
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
      a.pipe(b);
    }
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const cut = () => {
    down = true;
    for (const s of open) s.destroy();
  };
  return {
    port: (server.address() as { port: number }).port,
    cut,
    restore: () => void (down = false),
    close: () =>
      new Promise<void>((done) => {
        cut();
        server.close(() => done());
      }),
  };
}
