import { sessionJson } from '../../shared/session-json';
import type { SessionWithUser } from '../../shared/views';
import { CacheEntry } from './cache-entry';

const NOW = Date.parse('2030-01-01T00:00:00.000Z');

function session(fields: { banned?: boolean; banExpires?: string | null; impersonatedBy?: string | null } = {}) {
  const value: SessionWithUser = {
    session: {
      id: '3d345331-f226-41f2-82ae-da5565c3da87',
      token: 'u3syPB2aROgsD94Cb7x8R0eN5VktZkCk',
      userId: '2cb09c0b-1eef-45ff-81f5-2ecdcc0080a8',
      expiresAt: '2030-01-08T00:00:00.000Z',
      createdAt: '2029-12-31T00:00:00.000Z',
      updatedAt: '2029-12-31T12:00:00.000Z',
      ipAddress: '127.0.0.1',
      userAgent: 'a|b',
      impersonatedBy: fields.impersonatedBy ?? null,
      activeOrganizationId: null,
      rememberMe: false,
    },
    user: {
      id: '2cb09c0b-1eef-45ff-81f5-2ecdcc0080a8',
      email: 'pipe|in@example.com',
      emailVerified: true,
      name: 'Pipe | Name',
      image: null,
      role: 'user',
      banned: fields.banned ?? false,
      banReason: null,
      banExpires: fields.banExpires ?? null,
      language: null,
      twoFactorEnabled: false,
      passkeyCount: 0,
      createdAt: '2029-12-31T00:00:00.000Z',
      updatedAt: '2029-12-31T00:00:00.000Z',
    },
  };
  return value;
}

const stored = (value: SessionWithUser) => CacheEntry.of(value, sessionJson(value)).stored();

describe('a session cache entry', () => {
  it('reads back what it stored: the body as it is sent, the head, the session parsed on first use', () => {
    const value = session();
    const read = CacheEntry.read(stored(value))!;
    expect(read.json).toBe(sessionJson(value));
    expect(read.head).toEqual({
      id: value.session.id,
      rememberMe: false,
      expiresAt: Date.parse(value.session.expiresAt),
      updatedAt: Date.parse(value.session.updatedAt),
      impersonated: false,
      ban: { banned: false, banExpires: null },
    });
    expect(read.value).toEqual(value);
    expect(read.value).toBe(read.value); // parsed once
  });

  it('keeps remember-me, an impersonation and a ban with or without an end', () => {
    const remembered = session({ impersonatedBy: 'f0c8a1c2-9a8e-4a57-9c53-2f8a0f1b9d11' });
    remembered.session.rememberMe = true;
    const read = CacheEntry.read(stored(remembered))!;
    expect([read.head.rememberMe, read.head.impersonated, read.value.session.rememberMe]).toEqual([true, true, true]);
    const forever = CacheEntry.read(stored(session({ banned: true })))!;
    expect([forever.bannedAt(NOW), forever.value.user.banned]).toEqual([true, true]);
    const until = CacheEntry.read(stored(session({ banned: true, banExpires: '2030-01-01T00:00:01.000Z' })))!;
    expect([until.bannedAt(NOW), until.bannedAt(NOW + 1000), until.bannedAt(NOW + 2000)]).toEqual([true, false, false]);
    const lapsed = CacheEntry.read(stored(session({ banned: true, banExpires: '2029-12-31T23:59:59.000Z' })))!;
    expect(lapsed.bannedAt(NOW)).toBe(false);
    expect(CacheEntry.read(stored(session()))!.bannedAt(NOW)).toBe(false);
  });

  it('reads an entry of an older format or a damaged one as a miss', () => {
    const value = session();
    const good = stored(value);
    expect(CacheEntry.read(`1${sessionJson(value)}`)).toBeNull(); // what versions before the head wrote
    expect(CacheEntry.read(`0${sessionJson(value)}`)).toBeNull();
    expect(CacheEntry.read(good.slice(0, 20))).toBeNull();
    expect(CacheEntry.read(good.replace(/\|\d{13}\|/, '|soon|'))).toBeNull();
    expect(CacheEntry.read('')).toBeNull();
  });
});
