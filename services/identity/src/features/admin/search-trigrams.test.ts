import { postingsOf } from './search-sample';
import { indexProbes, patternTrigrams, valueTrigrams } from './search-trigrams';

describe('patternTrigrams', () => {
  it("takes pg_trgm's trigrams of a %text% pattern: words lowercased, padded only where the text shows an edge", () => {
    expect(patternTrigrams('User12')).toEqual(['use', 'ser', 'er1', 'r12']);
    expect(patternTrigrams('walker 19')).toEqual(['wal', 'alk', 'lke', 'ker', 'er ', '  1', ' 19']);
    expect(patternTrigrams('a.b')).toEqual(['  b']); // 'a' and its pad make only two characters
    expect(patternTrigrams('ab')).toEqual([]);
    expect(patternTrigrams('@x.io')).toEqual(['  x', ' x ', '  i', ' io']);
  });

  it('folds accents as the database folds names (search_fold), so an accented text picks the folded trigrams', () => {
    expect(patternTrigrams('MÜLLER')).toEqual(patternTrigrams('muller'));
    expect(patternTrigrams('Mùller')).toEqual(patternTrigrams('muller'));
    expect(patternTrigrams('Strøm')).toEqual(patternTrigrams('strom'));
    expect([...valueTrigrams('Zoë Weiß')]).toEqual([...valueTrigrams('zoe weiss')]);
  });
});

describe('valueTrigrams', () => {
  it('pads every word of a stored value as pg_trgm does', () => {
    expect([...valueTrigrams('Al Bo')].sort()).toEqual(['  a', '  b', ' al', ' bo', 'al ', 'bo '].sort());
  });
});

describe('indexProbes', () => {
  // Names as the admin benchmark seeds them: 20 first names × 20 last names × a number; one sampled row per 50 users.
  const first = ['Alice', 'Bob', 'Carol', 'Olivia', 'Walter', 'Peggy', 'Victor', 'Trent', 'Sybil', 'Niaj'];
  const last = ['Smith', 'Jones', 'Walker', 'White', 'Hall', 'Wood', 'Green', 'Clarke', 'Evans', 'Wright'];
  const names = Array.from(
    { length: 4000 },
    (_, i) => `${first[i % 10]} ${last[Math.floor(i / 10) % 10]} ${1 + i * 50}`,
  );
  const sample = postingsOf(names, 50);
  const matching = (probes: string[]) => names.filter((n) => probes.every((p) => n.toLowerCase().includes(p)));

  it('looks up the whole text without a sample', () => {
    expect(indexProbes('walker 19', null)).toEqual(['walker 19']);
    expect(indexProbes('walker 19', postingsOf([], 0))).toEqual(['walker 19']);
  });

  it('picks few rare parts of the text: about as selective as the whole text, without its common trigrams', () => {
    const probes = indexProbes('walker 19', sample);
    expect(probes.length).toBeLessThanOrEqual(2);
    for (const probe of probes) expect('walker 19'.includes(probe)).toBe(true);
    expect(probes).toContain(' 19'); // the number's start: rarer than any letter of "walker"
    expect(probes.flatMap(patternTrigrams)).not.toContain('wal'); // in Walker and Walter: rules out less
    // Sampled rows holding every probe: not many more than those holding the whole text.
    expect(matching(probes).length).toBeLessThanOrEqual(matching(['walker 19']).length * 1.5 + 2);
  });

  it('stops at one probe when the rarest part is rare enough on its own', () => {
    expect(indexProbes('qzx-walker', sample)).toEqual(['qzx']); // in no sampled row
    expect(indexProbes('olivia', sample)).toHaveLength(1); // every trigram of "olivia" is in the same rows
  });

  it('always answers parts of the text, and the text itself when no three characters make a trigram', () => {
    for (const text of ['x', 'ab', '%_\\', 'Ünïcödé name', 'a b c d e', 'a'.repeat(500), '😀😀😀😀']) {
      const probes = indexProbes(text, sample);
      expect(probes.length).toBeGreaterThan(0);
      for (const probe of probes) expect(text.includes(probe)).toBe(true);
    }
    expect(indexProbes('ab', sample)).toEqual(['ab']);
  });
});
