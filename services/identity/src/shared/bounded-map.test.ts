import { BoundedMap } from './bounded-map';

describe('BoundedMap', () => {
  it('forgets the oldest entry once full and never grows past its limit', () => {
    const map = new BoundedMap<string, number>(3);
    for (const [i, key] of ['a', 'b', 'c', 'd'].entries()) map.set(key, i);
    expect(map.size).toBe(3);
    expect(map.get('a')).toBeUndefined();
    expect([map.get('b'), map.get('c'), map.get('d')]).toEqual([1, 2, 3]);
  });

  it('replacing a key keeps the others', () => {
    const map = new BoundedMap<string, number>(2);
    map.set('a', 1);
    map.set('b', 2);
    map.set('a', 3);
    expect([map.get('a'), map.get('b'), map.size]).toEqual([3, 2, 2]);
    map.delete('a');
    expect(map.get('a')).toBeUndefined();
  });
});
