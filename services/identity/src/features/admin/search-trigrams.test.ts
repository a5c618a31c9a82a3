import { indexedPart, patternTrigrams, valueTrigrams } from './search-trigrams';

describe('patternTrigrams', () => {
  it("takes pg_trgm's trigrams of a %text% pattern: words lowercased, padded only where the text shows an edge", () => {
    expect(patternTrigrams('User12')).toEqual(['use', 'ser', 'er1', 'r12']);
    expect(patternTrigrams('walker 19')).toEqual(['wal', 'alk', 'lke', 'ker', 'er ', '  1', ' 19']);
    expect(patternTrigrams('a.b')).toEqual(['  b']); // 'a' and its pad make only two characters
    expect(patternTrigrams('ab')).toEqual([]);
    expect(patternTrigrams('@x.io')).toEqual(['  x', ' x ', '  i', ' io']);
  });
});

describe('valueTrigrams', () => {
  it('pads every word of a stored value as pg_trgm does', () => {
    expect([...valueTrigrams('Al Bo')].sort()).toEqual(['  a', '  b', ' al', ' bo', 'al ', 'bo '].sort());
  });
});

describe('indexedPart', () => {
  const frequent = (set: string[]) => (t: string) => set.includes(t);

  it('drops leading and trailing characters whose trigrams are in most rows', () => {
    expect(indexedPart('user1234', frequent(['use', 'ser', 'er1']))).toBe('r1234');
    expect(
      indexedPart('john@example.com', frequent(['com', 'exa', 'xam', 'amp', 'mpl', 'ple', 'le ', '  c', ' co'])),
    ).toBe('john@ex'); // ' ex' is not frequent
  });

  it('keeps the text whole when its edges are rare, even around a frequent trigram inside', () => {
    expect(indexedPart('walker 19', frequent(['  1']))).toBe('walker 19');
    expect(indexedPart('user1234', frequent([]))).toBe('user1234');
  });

  it('keeps at least one trigram when every trigram is frequent', () => {
    const part = indexedPart('user', frequent(['use', 'ser']));
    expect(patternTrigrams(part).length).toBeGreaterThan(0);
    expect('user'.includes(part)).toBe(true);
  });

  it('always answers a part of the text', () => {
    for (const text of ['x', 'ab', '%_\\', 'Ünïcödé name', 'a b c d e']) {
      const part = indexedPart(text, () => true);
      expect(text.includes(part)).toBe(true);
    }
  });
});
