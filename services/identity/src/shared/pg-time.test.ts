import { types } from 'pg';
import { isoFromPg } from './pg-time';

/** What the service answered before: pg's own timestamptz parser, then toISOString(). */
const viaDate = (text: string) => (types.getTypeParser(types.builtins.TIMESTAMPTZ)(text) as Date).toISOString();

/** A UTC instant as PostgreSQL writes a timestamptz in a UTC session: microseconds, trailing zeros dropped. */
function pgText(ms: number, micros: number): string {
  const d = new Date(ms);
  const base = d.toISOString().slice(0, 19).replace('T', ' ');
  const fraction = String(d.getUTCMilliseconds() * 1000 + micros)
    .padStart(6, '0')
    .replace(/0+$/, '');
  return `${base}${fraction ? `.${fraction}` : ''}+00`;
}

describe('isoFromPg', () => {
  it('answers what parsing into a Date answered, for every fraction length', () => {
    const texts = [
      '2026-11-22 01:15:38+00',
      '2026-11-22 01:15:38.1+00',
      '2026-11-22 01:15:38.12+00',
      '2026-11-22 01:15:38.123+00',
      '2026-11-22 01:15:38.1234+00',
      '2026-11-22 01:15:38.12345+00',
      '2026-11-22 01:15:38.123456+00',
      '2026-11-22 01:15:38.999999+00',
      '2026-11-22 01:15:38.000001+00',
      '1970-01-01 00:00:00+00',
      '0050-03-01 12:00:00.5+00',
    ];
    for (const text of texts) expect([text, isoFromPg(text)]).toEqual([text, viaDate(text)]);
    expect(isoFromPg('2026-11-22 01:15:38.12+00')).toBe('2026-11-22T01:15:38.120Z');
    expect(isoFromPg('2026-11-22 01:15:38.999999+00')).toBe('2026-11-22T01:15:38.999Z');
  });

  it('answers the same as a Date for 20,000 instants across four centuries', () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed;
    };
    const texts = Array.from({ length: 20_000 }, () => {
      const ms = Date.UTC(1900, 0, 1) + (next() / 2 ** 31) * (Date.UTC(2300, 0, 1) - Date.UTC(1900, 0, 1));
      return pgText(Math.floor(ms), next() % 1000);
    });
    expect(new Set(texts.map((text) => text.length)).size).toBeGreaterThan(5); // fractions of every length
    expect(texts.filter((text) => isoFromPg(text) !== viaDate(text))).toEqual([]);
  });

  it('goes through a Date for other offsets, BC dates and years past 9999', () => {
    const texts = [
      '2026-11-22 06:45:38.123456+05:30',
      '2026-11-21 17:15:38-08',
      '2026-11-22 01:15:38.5+00:00:30',
      '0044-03-15 12:00:00+00 BC',
      '10000-01-01 00:00:00+00',
    ];
    for (const text of texts) expect([text, isoFromPg(text)]).toEqual([text, viaDate(text)]);
    expect(isoFromPg('2026-11-22 06:45:38.123456+05:30')).toBe('2026-11-22T01:15:38.123Z');
  });
});
