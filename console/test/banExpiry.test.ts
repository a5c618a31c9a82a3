import { describe, expect, it } from 'vitest';
import { BanExpiryError, banExpiresIn, localDateTime } from '../src/users/banExpiry';

const now = new Date(2026, 2, 1, 12, 0, 0).getTime(); // local time, as the browser reads the date field

describe("banExpiresIn: the ban dialog's end as ban-user's seconds", () => {
  it('a length: its seconds', () => {
    expect(banExpiresIn('1h', '', now)).toBe(3600);
    expect(banExpiresIn('1d', '', now)).toBe(86_400);
    expect(banExpiresIn('7d', '', now)).toBe(604_800);
    expect(banExpiresIn('30d', '', now)).toBe(2_592_000);
  });

  it('never: no expiry', () => {
    expect(banExpiresIn('never', '', now)).toBeUndefined();
  });

  it('a local date and time: the seconds from now until then', () => {
    expect(banExpiresIn('until', '2026-03-01T13:30', now)).toBe(5400);
    expect(banExpiresIn('until', '2026-03-08T12:00', now)).toBe(7 * 86_400);
    expect(banExpiresIn('until', localDateTime(now + 90_000), now)).toBe(60); // minutes only: 12:01
  });

  it('a time not a minute ahead, unreadable, too far, or no choice: refused with the reason', () => {
    const refused = (choice: string, until: string) => {
      try {
        banExpiresIn(choice, until, now);
      } catch (error) {
        expect(error).toBeInstanceOf(BanExpiryError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refused('until', '2026-03-01T12:00')).toBe('resources.users.ban_expiry.past');
    expect(refused('until', '2026-02-28T12:00')).toBe('resources.users.ban_expiry.past');
    expect(refused('until', '')).toBe('resources.users.ban_expiry.invalid');
    expect(refused('until', 'tomorrow')).toBe('resources.users.ban_expiry.invalid');
    expect(refused('until', '2200-01-01T00:00')).toBe('resources.users.ban_expiry.too_far');
    expect(refused('', '')).toBe('resources.users.ban_expiry.pick');
    expect(refused('3600', '')).toBe('resources.users.ban_expiry.pick');
  });
});

describe('localDateTime', () => {
  it('writes a time as a datetime-local field does, in the local zone', () => {
    expect(localDateTime(new Date(2026, 0, 5, 9, 7, 59).getTime())).toBe('2026-01-05T09:07');
  });
});
