interface Waiter<V> {
  resolve(value: V | undefined): void;
  reject(error: unknown): void;
}

/**
 * Coalesces the lookups made in one turn of the event loop into one fetch of at most `maxBatch` distinct keys.
 * Under load, the requests parsed in one poll phase then cost one database round trip instead of one each; alone,
 * a lookup waits only for the end of the current turn (setImmediate). A load never joins a fetch already sent,
 * so it always sees what was committed before it was made. A failed fetch rejects each of its loads.
 */
export class TickBatcher<K, V> {
  private pending: Map<K, Waiter<V>[]> | null = null;

  constructor(
    private readonly fetch: (keys: K[]) => Promise<Map<K, V>>,
    private readonly maxBatch: number,
  ) {}

  /** The value of `key`, undefined when the fetch did not return it. */
  load(key: K): Promise<V | undefined> {
    if (!this.pending) {
      this.pending = new Map();
      setImmediate(() => this.flush());
    }
    const pending = this.pending;
    return new Promise((resolve, reject) => {
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
    });
  }

  private flush(): void {
    const batch = [...(this.pending ?? [])];
    this.pending = null;
    for (let i = 0; i < batch.length; i += this.maxBatch) void this.run(batch.slice(i, i + this.maxBatch));
  }

  private async run(entries: Array<[K, Waiter<V>[]]>): Promise<void> {
    try {
      const found = await this.fetch(entries.map(([key]) => key));
      for (const [key, waiters] of entries) for (const waiter of waiters) waiter.resolve(found.get(key));
    } catch (error) {
      for (const [, waiters] of entries) for (const waiter of waiters) waiter.reject(error);
    }
  }
}
