import { TickBatcher } from './tick-batcher';

/** A fetch that records each batch it is asked for and answers `value-<key>` for keys not in `missing`. */
function recorder(missing: string[] = []) {
  const calls: string[][] = [];
  const fetch = async (keys: string[]) => {
    calls.push([...keys]);
    await new Promise((resolve) => setTimeout(resolve, 5));
    return new Map(keys.filter((k) => !missing.includes(k)).map((k) => [k, `value-${k}`]));
  };
  return { calls, fetch };
}

describe('TickBatcher', () => {
  it('answers loads made in the same turn of the event loop with one fetch, each with its own value', async () => {
    const { calls, fetch } = recorder(['c']);
    const batcher = new TickBatcher(fetch, 100);
    const answers = await Promise.all(['a', 'b', 'c', 'a'].map((k) => batcher.load(k)));
    expect(answers).toEqual(['value-a', 'value-b', undefined, 'value-a']);
    expect(calls).toEqual([['a', 'b', 'c']]); // a key asked twice is fetched once
  });

  it('never joins a fetch already sent: a load made while one is in flight waits for the next batch', async () => {
    const { calls, fetch } = recorder();
    const batcher = new TickBatcher(fetch, 100);
    const first = batcher.load('a');
    await new Promise((resolve) => setImmediate(resolve)); // the first batch has been sent
    const second = batcher.load('a');
    expect(await Promise.all([first, second])).toEqual(['value-a', 'value-a']);
    expect(calls).toEqual([['a'], ['a']]);
  });

  it('splits a turn with more keys than the batch limit into several fetches', async () => {
    const { calls, fetch } = recorder();
    const batcher = new TickBatcher(fetch, 2);
    const answers = await Promise.all(['a', 'b', 'c', 'd', 'e'].map((k) => batcher.load(k)));
    expect(answers).toEqual(['value-a', 'value-b', 'value-c', 'value-d', 'value-e']);
    expect(calls).toEqual([['a', 'b'], ['c', 'd'], ['e']]);
  });

  it('rejects every load of a failed fetch with its error and keeps working afterwards', async () => {
    let fail = true;
    const batcher = new TickBatcher(async (keys: string[]) => {
      if (fail) throw new Error('database down');
      return new Map(keys.map((k) => [k, k.toUpperCase()]));
    }, 10);
    const failed = await Promise.allSettled([batcher.load('a'), batcher.load('b')]);
    expect(failed.map((r) => (r.status === 'rejected' ? (r.reason as Error).message : 'fulfilled'))).toEqual([
      'database down',
      'database down',
    ]);
    fail = false;
    await expect(batcher.load('a')).resolves.toBe('A');
  });

  it('a fetch that throws synchronously rejects its loads instead of escaping', async () => {
    const batcher = new TickBatcher<string, string>(() => {
      throw new Error('bad query');
    }, 10);
    await expect(batcher.load('a')).rejects.toThrow('bad query');
  });
});
