import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/**
 * Where the service may send requests that an operator's URL chooses (webhooks, docs/webhooks.md): in production,
 * https only, and only to public addresses, unless the allow-list names the host or a range holding the address.
 * The address rule is applied to every address a name resolves to, when the connection is made (the `lookup` of
 * the request), so a name that resolved to a public address when the URL was saved and to a private one later
 * (DNS rebinding) is refused all the same. Outside production (`enforce` false) any http(s) URL passes.
 */

/** Not public: unspecified, loopback, private, shared (CGNAT), link-local (cloud metadata), multicast, reserved. */
const NOT_PUBLIC_V4 = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const;
const NOT_PUBLIC_V6 = [
  ['::', 128],
  ['::1', 128],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const;

const NOT_PUBLIC = new BlockList();
for (const [net, prefix] of NOT_PUBLIC_V4) NOT_PUBLIC.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of NOT_PUBLIC_V6) NOT_PUBLIC.addSubnet(net, prefix, 'ipv6');

/** An IPv4 address carried in IPv6 (`::ffff:10.0.0.1`, also written `::ffff:a00:1`): judged as the IPv4 address. */
function embeddedV4(address: string): string | null {
  const m = /^::ffff:(?:0:)?(.+)$/i.exec(address);
  if (!m) return null;
  if (isIP(m[1]) === 4) return m[1];
  const hex = /^([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(m[1]);
  if (!hex) return null;
  const [hi, lo] = [Number.parseInt(hex[1], 16), Number.parseInt(hex[2], 16)];
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export class TargetRefused extends Error {
  override name = 'TargetRefused';
}

/** An allow-list entry: a CIDR (`10.1.0.0/16`, `fd00::/8`), an address, or a host name (exact, any case). */
export function parseAllowEntry(entry: string): { kind: 'host'; host: string } | { kind: 'range'; list: BlockList } {
  const text = entry.trim();
  const [net, bits] = text.split('/');
  const family = isIP(net);
  if (family) {
    const type = family === 4 ? 'ipv4' : 'ipv6';
    const max = family === 4 ? 32 : 128;
    const prefix = bits === undefined ? max : Number(bits);
    if (!/^\d+$/.test(bits ?? String(max)) || prefix > max) throw new Error(`"${entry}" is not a CIDR`);
    const list = new BlockList();
    list.addSubnet(net, prefix, type);
    return { kind: 'range', list };
  }
  if (bits !== undefined || !/^[a-z0-9]([a-z0-9.-]*[a-z0-9])?$/i.test(text))
    throw new Error(`"${entry}" is neither a host name nor a CIDR`);
  return { kind: 'host', host: text.toLowerCase() };
}

export class TargetPolicy {
  private readonly hosts = new Set<string>();
  private readonly ranges: BlockList[] = [];

  constructor(
    /** Production: https only, public addresses only (but the allow-list). */
    readonly enforce: boolean,
    allowed: readonly string[] = [],
    private readonly resolve: typeof dnsLookup = dnsLookup,
  ) {
    for (const entry of allowed) {
      const parsed = parseAllowEntry(entry);
      if (parsed.kind === 'host') this.hosts.add(parsed.host);
      else this.ranges.push(parsed.list);
    }
  }

  /** Why this URL may not be used as it is written (scheme, credentials, https in production), or null. */
  urlProblem(text: string, enforce = this.enforce): string | null {
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      return 'is not a URL';
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
    if (url.username || url.password) return 'must not carry credentials';
    if (url.hash) return 'must not carry a fragment';
    if (enforce && url.protocol !== 'https:') return 'must be an https URL';
    return null;
  }

  /**
   * Why the URL's host may not be reached now, or null: each address it resolves to is checked (an address
   * literal as it is). For a clear error when the URL is saved; the connection checks again (`lookup`).
   */
  async hostProblem(text: string): Promise<string | null> {
    if (!this.enforce) return null;
    const host = hostOf(new URL(text));
    if (this.hosts.has(host.toLowerCase())) return null;
    if (isIP(host)) return this.addressProblem(host);
    let addresses: LookupAddress[];
    try {
      addresses = await new Promise<LookupAddress[]>((done, fail) =>
        this.resolve(host, { all: true }, (error, found) => (error ? fail(error) : done(found))),
      );
    } catch {
      return `host ${host} does not resolve`;
    }
    for (const { address } of addresses) {
      const problem = this.addressProblem(address);
      if (problem) return problem;
    }
    return null;
  }

  /** Why an address may not be connected to, or null. */
  addressProblem(address: string): string | null {
    if (!this.enforce) return null;
    const v4 = embeddedV4(address);
    const family = v4 ? 'ipv4' : isIP(address) === 6 ? 'ipv6' : 'ipv4';
    const checked = v4 ?? address;
    if (this.ranges.some((list) => list.check(checked, family))) return null;
    return NOT_PUBLIC.check(checked, family) ? `address ${address} is not public` : null;
  }

  /** Whether the URL's host is on the allow-list by name (its addresses are then not checked). */
  hostAllowed(url: URL): boolean {
    return this.hosts.has(hostOf(url).toLowerCase());
  }

  /**
   * A `lookup` for an outgoing connection (node:http's option): resolves the name and refuses the connection when
   * any address it gave is not allowed. Names on the allow-list resolve as usual.
   */
  lookupFor(url: URL): LookupFunction {
    const skip = !this.enforce || this.hostAllowed(url);
    return (hostname, options, callback) => {
      this.resolve(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
        if (error) return callback(error, '', 0);
        if (!addresses.length) return callback(new TargetRefused(`${hostname} has no address`), '', 0);
        if (!skip)
          for (const { address } of addresses) {
            const problem = this.addressProblem(address);
            if (problem) return callback(new TargetRefused(`refused: ${problem}`), '', 0);
          }
        if (options.all) return callback(null, addresses);
        const first = addresses[0];
        callback(null, first.address, first.family);
      });
    };
  }
}

/** The URL's host without IPv6 brackets. */
export function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}
