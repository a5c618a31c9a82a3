import { describe, expect, it } from 'vitest';
import { banState } from '../src/users/banState';

const now = Date.parse('2026-03-01T12:00:00Z');

describe('banState: the ban in force (spec §4: a ban whose expiry has passed no longer holds)', () => {
  it('not banned', () => {
    expect(banState({ banned: false, banExpires: null }, now)).toEqual({ active: false, until: null, lapsed: null });
  });

  it('banned without an expiry', () => {
    expect(banState({ banned: true, banExpires: null }, now)).toEqual({ active: true, until: null, lapsed: null });
  });

  it('banned until a time still ahead', () => {
    const ends = '2026-03-02T12:00:00.000Z';
    expect(banState({ banned: true, banExpires: ends }, now)).toEqual({
      active: true,
      until: new Date(ends),
      lapsed: null,
    });
  });

  it('a ban whose expiry has passed (the flag not cleared yet) is lapsed, not in force; so is one ending now', () => {
    const ended = '2026-02-28T12:00:00.000Z';
    expect(banState({ banned: true, banExpires: ended }, now)).toEqual({
      active: false,
      until: null,
      lapsed: new Date(ended),
    });
    expect(banState({ banned: true, banExpires: new Date(now).toISOString() }, now).active).toBe(false);
  });
});
