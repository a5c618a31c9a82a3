import { MemoryStore } from './memory-store';

describe('MemoryStore fences', () => {
  it('a fenced key reads as missing, refuses fills until deleted or expired, and accepts them after', async () => {
    let now = 0;
    const store = new MemoryStore(() => now);
    await store.set('k', 'old', 60);
    await store.fence(['k'], 10);
    expect([await store.get('k'), await store.getMany(['k']), await store.take('k')]).toEqual([null, [null], null]);
    await store.fence(['k'], 10);
    expect(await store.fill('k', 'stale', 60)).toBe(false);
    expect(await store.get('k')).toBeNull();
    now += 10_001; // the fence expired
    expect(await store.fill('k', 'fresh', 60)).toBe(true);
    expect(await store.get('k')).toBe('fresh');
    await store.fence(['k'], 10);
    await store.del('k');
    expect(await store.fill('k', 'again', 60)).toBe(true);
    expect(await store.get('k')).toBe('again');
  });
});
