import { isStorableText, unstorableField } from './storable-text';

describe('text PostgreSQL can store', () => {
  it.each([
    ['plain text', 'hello', true],
    ['a surrogate pair (emoji)', 'ok \ud83d\ude00', true],
    ['other control characters', '\u0001\u001f\u007f', true],
    ['NUL', 'a\u0000b', false],
    ['a lone high surrogate', 'a\ud83d', false],
    ['a lone low surrogate', '\ude00a', false],
    ['reversed pair', '\ude00\ud83d', false],
  ])('%s → %s', (_label, text, storable) => {
    expect(isStorableText(text)).toBe(storable);
  });

  it('names the first unstorable value or key, at any depth', () => {
    expect(unstorableField({ a: { b: ['x', { c: '\ud800' }] } }, 'body')).toBe('body.a.b.1.c');
    expect(unstorableField({ meta: { 'k\u0000': 1 } }, 'body')).toBe('body.meta');
    expect(unstorableField({ a: 'ok', b: [1, true, null, 'fine'] }, 'body')).toBeNull();
    expect(unstorableField('x\u0000', 'ip')).toBe('ip');
    let deep: unknown = 'a\u0000';
    for (let i = 0; i < 30_000; i++) deep = [deep];
    expect(unstorableField(deep, 'body')).toBe(`body${'.0'.repeat(30_000)}`);
  });
});
