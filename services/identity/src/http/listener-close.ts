import { connect, Server as NetServer, type Socket } from 'node:net';
import { type ProcListener, peerKey, portView, queueLength, socketInode } from './proc-net-tcp';

/** The listen backlog (Node's default), passed explicitly by src/main.ts: `closeListener` restores it between tries. */
export const LISTEN_BACKLOG = 511;
/** How long `closeListener` tries to seal the accept queue before it closes the listener anyway. */
export const SEAL_DEADLINE_MS = 2000;
/** The pause between two tries. */
const RETRY_MS = 10;
/** How long a try waits, the event loop held, for its own connection's handshake (on loopback: microseconds). */
const HANDSHAKE_WAIT_MS = 20;

interface Log {
  info(fields: object, msg: string): void;
  warn(fields: object, msg: string): void;
}

/**
 * Closes a server's listening socket without resetting a connection the kernel completed for it.
 *
 * Why this is needed: on Linux, closing a listening socket resets every connection in its accept queue, completed
 * by the kernel (the client got its SYN-ACK, believes it is connected and has sent its request) but not yet
 * accepted by the process; the same holds for the handshakes under way. Under load, the end of the drain is when
 * they are most numerous: every answer of the drain closes its connection, and each client opens the next one at
 * once. A client that would be refused (nothing listening) can retry elsewhere; one that is reset cannot know
 * whether its request was served.
 *
 * How: the kernel answers no SYN while the accept queue is full, and the queue is full when it holds more than the
 * backlog. So the process opens a connection to itself (the sentinel), lets its handshake complete behind the
 * queued connections, then lowers the backlog to 0: the queue, holding at least the sentinel, is full, and a
 * client's SYN from then on goes unanswered (the client resends it after a second, and is refused by then). The
 * event loop keeps accepting: the clients' connections ahead of the sentinel are accepted and served. When the
 * kernel shows only the sentinel in the queue and no half-open handshake (`/proc/net/tcp`), the listener closes:
 * the one connection reset is the sentinel. A try that finds a half-open handshake (its final ACK was dropped by the
 * full queue), or clients' connections queued behind the sentinel, restores the backlog, lets them in, and tries
 * again `RETRY_MS` later, up to `SEAL_DEADLINE_MS`; then the listener closes anyway, with a warning.
 *
 * Node has no public API to change a listening socket's backlog or to learn its file descriptor: this uses the
 * server's libuv handle (`server._handle.listen(backlog)`, which calls listen(2) again, and `_handle.fd`), and the
 * sentinel's (`getpeername`, to see its handshake done). Elsewhere than on Linux, or when those are missing, the
 * listener simply closes, as `net.Server#close` does.
 */
export function closeListener(server: NetServer, log: Log): Promise<void> {
  const sealer = ListenerSealer.of(server);
  if (!sealer) {
    NetServer.prototype.close.call(server);
    log.info({ sealed: false }, 'listener closed');
    return Promise.resolve();
  }
  return sealer.close(log);
}

/** The internals `closeListener` needs of a listening server (isolated here, checked before use). */
interface ListenHandle {
  fd: number;
  listen(backlog: number): number;
}

function listenHandleOf(server: NetServer): ListenHandle | null {
  const handle = (server as unknown as { _handle?: Partial<ListenHandle> | null })._handle;
  if (!handle || typeof handle.fd !== 'number' || handle.fd < 0 || typeof handle.listen !== 'function') return null;
  return handle as ListenHandle;
}

/** Whether a connecting socket's handshake is done (its peer is known); true when that cannot be asked. */
function handshakeDone(socket: Socket): boolean {
  const handle = (socket as unknown as { _handle?: { getpeername?: (out: object) => number } | null })._handle;
  if (!handle) return false;
  if (typeof handle.getpeername !== 'function') return true;
  return handle.getpeername({}) === 0;
}

const pause = new Int32Array(new SharedArrayBuffer(4));
/** Holds the event loop (nothing is accepted meanwhile) for a short while. */
function hold(ms: number): void {
  Atomics.wait(pause, 0, 0, ms);
}

class ListenerSealer {
  private readonly sentinels = new Map<string, Socket>();
  /** The current try's sentinel, as `peerKey`. */
  private sentinel: string | null = null;
  private frozen = false;
  private done = false;
  private tries = 0;
  private retry: NodeJS.Timeout | undefined;
  private deadline: NodeJS.Timeout | undefined;
  private finished: () => void = () => {};
  private log: Log | null = null;
  private readonly started = Date.now();

  private constructor(
    private readonly server: NetServer,
    private readonly handle: ListenHandle,
    private readonly proc: ProcListener,
    /** Where the sentinel connects: the listening address, or loopback for a wildcard one. */
    private readonly host: string,
  ) {}

  static of(server: NetServer): ListenerSealer | null {
    if (process.platform !== 'linux') return null;
    const handle = listenHandleOf(server);
    const address = server.address();
    if (!handle || !address || typeof address === 'string') return null;
    const inode = socketInode(handle.fd);
    if (!inode) return null;
    const proc: ProcListener = {
      file: address.family === 'IPv6' ? '/proc/net/tcp6' : '/proc/net/tcp',
      inode,
      port: address.port,
    };
    try {
      if (queueLength(proc) === null && portView(proc).queueLength === null) return null;
    } catch {
      return null;
    }
    const host = address.address === '0.0.0.0' ? '127.0.0.1' : address.address === '::' ? '::1' : address.address;
    return new ListenerSealer(server, handle, proc, host);
  }

  close(log: Log): Promise<void> {
    this.log = log;
    return new Promise((resolve) => {
      this.finished = resolve;
      this.server.on('connection', this.onConnection);
      this.deadline = setTimeout(() => {
        log.warn(
          { queued: this.safely(() => queueLength(this.proc)), tries: this.tries },
          'could not seal the accept queue in time: closing the listener resets the connections still in it',
        );
        this.finish(false);
      }, SEAL_DEADLINE_MS);
      this.attempt();
    });
  }

  /** One try: the sentinel's handshake, then the backlog to 0, then the check. */
  private attempt = (): void => {
    if (this.done) return;
    this.tries++;
    const sentinel = connect({ port: this.proc.port, host: this.host });
    sentinel.on('error', () => {});
    // net.connect to an IP address calls connect(2) in a tick queued before this one; the handshake on loopback
    // completes within microseconds, and the event loop is held meanwhile so the process accepts nothing.
    process.nextTick(() => {
      const until = Date.now() + HANDSHAKE_WAIT_MS;
      while (!this.done && !handshakeDone(sentinel) && Date.now() < until) hold(0.1);
      if (this.done || !handshakeDone(sentinel) || !sentinel.localAddress || !sentinel.localPort) {
        sentinel.destroy();
        this.later();
        return;
      }
      const key = peerKey(sentinel.localAddress, sentinel.localPort);
      this.sentinels.set(key, sentinel);
      this.sentinel = key;
      this.setBacklog(0);
      // Unless the kernel refused the new backlog: then there is nothing to seal with, and the listener closes.
      if (this.frozen) this.check();
      else this.finish(false);
    });
  };

  /** After each accept while frozen: close when the sentinel is all that is left. */
  private check(): void {
    if (this.done || !this.frozen) return;
    const queued = this.safely(() => queueLength(this.proc));
    // Connections ahead of the sentinel: the event loop accepts them, and each accept checks again.
    if (queued !== null && queued > 1) return;
    // An empty queue: the sentinel was not in it (and with backlog 0 an empty queue admits a connection).
    const view = queued === 0 ? null : this.safely(() => portView(this.proc));
    if (!view || view.queueLength === null || view.queueLength === 0 || view.halfOpen > 0) {
      this.thaw();
    } else if (view.queueLength === 1 && view.waiting.length === 1 && view.waiting[0] === this.sentinel) {
      this.finish(true);
    }
  }

  private onConnection = (socket: Socket): void => {
    if (this.done || !socket.remoteAddress || !socket.remotePort) return;
    const key = peerKey(socket.remoteAddress, socket.remotePort);
    if (this.sentinels.has(key)) {
      // A sentinel accepted: this try found connections behind it. Its own end closes at the end.
      socket.destroy();
      if (key === this.sentinel) this.thaw();
      return;
    }
    this.check();
  };

  /** Back to the listen backlog, and another try soon. */
  private thaw(): void {
    this.setBacklog(LISTEN_BACKLOG);
    this.later();
  }

  private later(): void {
    clearTimeout(this.retry);
    if (!this.done) this.retry = setTimeout(this.attempt, RETRY_MS);
  }

  private setBacklog(backlog: number): void {
    if (this.handle.listen(backlog) === 0) this.frozen = backlog === 0;
  }

  private finish(sealed: boolean): void {
    if (this.done) return;
    this.done = true;
    clearTimeout(this.retry);
    clearTimeout(this.deadline);
    this.server.off('connection', this.onConnection);
    NetServer.prototype.close.call(this.server);
    for (const sentinel of this.sentinels.values()) sentinel.destroy();
    this.log?.info({ sealed, tries: this.tries, ms: Date.now() - this.started }, 'listener closed');
    this.finished();
  }

  private safely<T>(read: () => T): T | null {
    try {
      return read();
    } catch {
      return null;
    }
  }
}
