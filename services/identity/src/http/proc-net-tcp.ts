import { closeSync, openSync, readFileSync, readlinkSync, readSync } from 'node:fs';
import { SocketAddress } from 'node:net';
import { endianness } from 'node:os';

/**
 * The kernel's view of one listening TCP socket, read from /proc/net/tcp (IPv4) or /proc/net/tcp6 (IPv6): Linux
 * only, and readable by any process in the network namespace. The listening socket's line gives its accept queue
 * length (`rx_queue`: connections the kernel has completed and the process not yet accepted). Those connections
 * have lines of their own (established or close-wait, inode 0: no process holds them yet), and so have half-open
 * ones (SYN_RECV: the kernel answered their SYN and waits for the final ACK).
 */
export interface ProcListener {
  file: '/proc/net/tcp' | '/proc/net/tcp6';
  /** The listening socket's inode (`/proc/self/fd/<fd>` → `socket:[inode]`): it names its line. */
  inode: string;
  port: number;
}

export interface PortView {
  /** The listener's accept queue length, or null when its line was not found. */
  queueLength: number | null;
  /** The connections in the accept queue, as `address port` (the client's). */
  waiting: string[];
  /** Connections to the port whose handshake the kernel has not completed yet. */
  halfOpen: number;
}

const LISTEN = '0A';
const SYN_RECV = '03';
const ESTABLISHED = '01';
const CLOSE_WAIT = '08';

/** The inode of the socket behind a file descriptor of this process, or null. */
export function socketInode(fd: number): string | null {
  try {
    return /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/self/fd/${fd}`))?.[1] ?? null;
  } catch {
    return null;
  }
}

/** `address port` as Node names a peer (`socket.remoteAddress`, `socket.remotePort`). */
export function peerKey(address: string, port: number): string {
  const family = address.includes(':') ? 'ipv6' : 'ipv4';
  return `${new SocketAddress({ address, family }).address} ${port}`;
}

/**
 * The listener's accept queue length, cheaply: the kernel lists the listening sockets first, so only the head of
 * the file is read. Null when its line is not among them (then `portView` reads the whole file).
 */
export function queueLength(listener: ProcListener): number | null {
  const fd = openSync(listener.file, 'r');
  try {
    const chunk = Buffer.alloc(16 * 1024);
    let rest = '';
    for (;;) {
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) return null;
      const lines = (rest + chunk.toString('latin1', 0, read)).split('\n');
      rest = lines.pop() ?? '';
      for (const line of lines) {
        const fields = line.trim().split(/\s+/);
        if (fields[0] === 'sl') continue;
        if (fields[3] !== LISTEN) return null;
        if (fields[9] === listener.inode) return rxQueue(fields);
      }
    }
  } finally {
    closeSync(fd);
  }
}

/** Everything the kernel holds for the listener's port: a whole read of the file (tens of ms with 20,000 lines). */
export function portView(listener: ProcListener): PortView {
  const view: PortView = { queueLength: null, waiting: [], halfOpen: 0 };
  const portField = `:${listener.port.toString(16).toUpperCase().padStart(4, '0')} `;
  for (const line of readFileSync(listener.file, 'latin1').split('\n')) {
    if (!line.includes(portField)) continue;
    const fields = line.trim().split(/\s+/);
    const [local, remote, state] = [fields[1], fields[2], fields[3]];
    if (!local || portOf(local) !== listener.port) continue;
    if (state === LISTEN) {
      if (fields[9] === listener.inode) view.queueLength = rxQueue(fields);
    } else if (state === SYN_RECV) view.halfOpen++;
    else if ((state === ESTABLISHED || state === CLOSE_WAIT) && fields[9] === '0')
      view.waiting.push(`${addressOf(remote)} ${portOf(remote)}`);
  }
  return view;
}

function rxQueue(fields: string[]): number {
  return Number.parseInt(fields[4].split(':')[1], 16);
}

function portOf(field: string): number {
  return Number.parseInt(field.slice(field.lastIndexOf(':') + 1), 16);
}

/** The kernel prints an address as 32-bit words in the machine's byte order: back to Node's text form. */
function addressOf(field: string): string {
  const bytes = Buffer.from(field.slice(0, field.lastIndexOf(':')), 'hex');
  if (endianness() === 'LE') for (let i = 0; i < bytes.length; i += 4) bytes.subarray(i, i + 4).reverse();
  if (bytes.length === 4) return bytes.join('.');
  const groups: string[] = [];
  for (let i = 0; i < bytes.length; i += 2) groups.push(bytes.readUInt16BE(i).toString(16));
  return new SocketAddress({ address: groups.join(':'), family: 'ipv6' }).address;
}
