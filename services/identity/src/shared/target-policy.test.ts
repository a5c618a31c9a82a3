import { lookup } from 'node:dns';
import { parseAllowEntry, TargetPolicy } from './target-policy';

describe('target policy (webhook SSRF rules)', () => {
  const production = new TargetPolicy(true);

  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.0.0.1',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.0.1',
    '169.254.169.254',
    '100.64.0.1',
    '100.127.255.254',
    '0.0.0.0',
    '224.0.0.1',
    '239.255.255.250',
    '255.255.255.255',
    '::',
    '::1',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'ff02::1',
    '::ffff:127.0.0.1',
    '::ffff:a00:1',
    '::ffff:169.254.169.254',
  ])('refuses %s in production', (address) => {
    expect(production.addressProblem(address)).toBe(`address ${address} is not public`);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'lets the public address %s through',
    (address) => {
      expect(production.addressProblem(address)).toBeNull();
    },
  );

  it('outside production lets every address and http through', () => {
    const dev = new TargetPolicy(false);
    expect(dev.addressProblem('127.0.0.1')).toBeNull();
    expect(dev.urlProblem('http://127.0.0.1:3000/x')).toBeNull();
    expect(production.urlProblem('http://example.com/x')).toBe('must be an https URL');
  });

  it('the allow-list lifts the address rule for its ranges and host names', async () => {
    const allowing = new TargetPolicy(true, ['10.1.0.0/16', 'fd00::/8', 'localhost', '192.168.5.5']);
    expect(allowing.addressProblem('10.1.2.3')).toBeNull();
    expect(allowing.addressProblem('10.2.0.1')).toBe('address 10.2.0.1 is not public');
    expect(allowing.addressProblem('fd00::5')).toBeNull();
    expect(allowing.addressProblem('192.168.5.5')).toBeNull();
    expect(await allowing.hostProblem('https://localhost/x')).toBeNull();
    expect(await production.hostProblem('https://localhost/x')).toMatch(/^address (127\.0\.0\.1|::1) is not public$/);
  });

  it('checks the addresses a name resolves to at connection time (the lookup), so a rebinding is refused', async () => {
    // A resolver whose answer changes between two lookups: public first, then loopback.
    let answer = '93.184.216.34';
    const rebinding = ((_host: string, _options: object, callback: (e: null, a: object[]) => void) =>
      callback(null, [{ address: answer, family: 4 }])) as unknown as typeof lookup;
    const policy = new TargetPolicy(true, [], rebinding);
    const url = new URL('https://rebind.example/hook');
    expect(await policy.hostProblem(url.href)).toBeNull();
    answer = '127.0.0.1';
    const error = await new Promise<Error | null>((done) =>
      policy.lookupFor(url)('rebind.example', { all: true }, (e) => done(e)),
    );
    expect(error?.message).toBe('refused: address 127.0.0.1 is not public');
  });

  it('refuses allow-list entries that are neither hosts nor CIDRs', () => {
    expect(() => parseAllowEntry('10.0.0.0/33')).toThrow();
    expect(() => parseAllowEntry('a b')).toThrow();
    expect(parseAllowEntry('Hooks.Internal')).toEqual({ kind: 'host', host: 'hooks.internal' });
  });
});
