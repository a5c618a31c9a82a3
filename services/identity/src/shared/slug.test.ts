import { ApiError } from '../errors';
import { normalizeSlug, slugOf } from './slug';

describe('normalizeSlug (NFKC, lower case, trimmed)', () => {
  it.each([
    ['acme', 'acme'],
    ['ACME', 'acme'],
    ['ａｃｍｅ', 'acme'],
    ['ＡＣＭＥ－１', 'acme-1'],
    ['  Acme\t', 'acme'],
    ['\u3000acme\u00a0', 'acme'],
    ['ﬁnance', 'finance'],
    ['Ⅻ-corp', 'xii-corp'],
    ['café', 'café'],
    ['cafe\u0301', 'café'],
    ['ΣΊΣΥΦΟΣ', 'σίσυφος'],
  ])('%j → %j', (slug, expected) => {
    expect(normalizeSlug(slug)).toBe(expected);
  });

  it('is idempotent on every code point of the Basic Multilingual Plane and beyond', () => {
    const unstable: string[] = [];
    for (let cp = 0; cp <= 0x2ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      const once = normalizeSlug(`a${String.fromCodePoint(cp)}`);
      if (normalizeSlug(once) !== once) unstable.push(cp.toString(16));
    }
    expect(unstable).toEqual([]);
  });

  it('slugOf refuses a slug that is empty once normalized', () => {
    expect(slugOf(' Acme ', 'body.slug')).toBe('acme');
    expect(() => slugOf(' \u3000\t', 'body.slug')).toThrow(ApiError);
    try {
      slugOf('   ', 'body.data.slug');
    } catch (error) {
      expect((error as ApiError).code).toBe('VALIDATION_ERROR');
      expect((error as ApiError).details).toEqual([{ field: 'body.data.slug', problem: expect.any(String) }]);
    }
  });
});
