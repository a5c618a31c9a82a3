import { FENCE, type KeyValueStore } from './key-value-store';

/** In-process store for a single instance without Redis; bounded so it cannot grow without limit. */
export class MemoryStore implements KeyValueStore {
  readonly kind = 'memory';
  private readonly entries = new Map<string, { value: string; expiresAt: number }>();

  constructor(
    private readonly now: () => number = Date.now,
    private readonly maxEntries = 100_000,
  ) {}

  async get(key: string): Promise<string | null> {
    const value = this.read(key);
    return value === FENCE ? null : value;
  }

  getMany(keys: string[]): Promise<Array<string | null>> {
    return Promise.all(keys.map((key) => this.get(key)));
  }

  async set(key: string, value: string, ttlSec: number): Promise<void> {
    if (this.entries.size >= this.maxEntries) this.evict();
    this.entries.delete(key);
    this.entries.set(key, { value, expiresAt: this.now() + ttlSec * 1000 });
  }

  async fence(keys: string[], ttlSec: number): Promise<void> {
    for (const key of keys) await this.set(key, FENCE, ttlSec);
  }

  async fill(key: string, value: string, ttlSec: number): Promise<boolean> {
    if (this.read(key) === FENCE) return false;
    await this.set(key, value, ttlSec);
    return true;
  }

  async take(key: string): Promise<string | null> {
    const value = await this.get(key);
    this.entries.delete(key);
    return value;
  }

  async del(...keys: string[]): Promise<void> {
    for (const key of keys) this.entries.delete(key);
  }

  async incr(key: string, ttlSec: number): Promise<number> {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) {
      await this.set(key, '1', ttlSec);
      return 1;
    }
    entry.value = String(Number(entry.value) + 1);
    return Number(entry.value);
  }

  async decr(key: string): Promise<void> {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= this.now()) return;
    entry.value = String(Math.max(0, Number(entry.value) - 1));
  }

  private read(key: string): string | null {
    const entry = this.entries.get(key);
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return null;
    }
    return entry.value;
  }

  /** Drop expired entries, then the oldest inserted if still full (Map keeps insertion order). */
  private evict(): void {
    const now = this.now();
    for (const [key, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(key);
    for (const key of this.entries.keys()) {
      if (this.entries.size < this.maxEntries) break;
      this.entries.delete(key);
    }
  }
}
