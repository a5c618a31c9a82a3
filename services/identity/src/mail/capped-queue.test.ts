import { type KeyValueStore, MemoryStore } from '../store';
import { CappedMailQueue } from './capped-queue';
import type { MailJob, MailQueue } from './jobs';

class Recorder implements MailQueue {
  readonly sent: MailJob[] = [];
  async enqueue(_id: string, job: MailJob) {
    this.sent.push(job);
  }
  async counts() {
    return {};
  }
  async close() {}
}

const job = (to: string, kind: 'reset-password' | 'verify-email' = 'reset-password'): MailJob => ({
  kind,
  to,
  name: 'Ann',
  language: 'ENG',
  url: 'https://id.example.test/x',
});

function failingStore(mode: 'refuses' | 'hangs'): KeyValueStore {
  const store = new MemoryStore();
  store.incr = () => (mode === 'refuses' ? Promise.reject(new Error('Redis is end')) : new Promise<number>(() => {}));
  return store;
}

describe('CappedMailQueue', () => {
  it('passes `max` mails of one kind per address and window, counted in the shared store by every instance', async () => {
    let now = 0;
    const shared = new MemoryStore(() => now);
    const inner = new Recorder();
    const warnings: string[] = [];
    const a = new CappedMailQueue(
      inner,
      shared,
      3,
      () => now,
      (m) => warnings.push(m),
    );
    const b = new CappedMailQueue(
      inner,
      shared,
      3,
      () => now,
      (m) => warnings.push(m),
    );
    for (let i = 0; i < 4; i++) await (i % 2 ? a : b).enqueue(`id-${i}`, job('Ann@Example.test'));
    await a.enqueue('other-case', job('ann@example.test'));
    expect(inner.sent).toHaveLength(3);
    await a.enqueue('other-kind', job('ann@example.test', 'verify-email'));
    await b.enqueue('other-address', job('bob@example.test'));
    expect(inner.sent).toHaveLength(5);
    expect(warnings.join('\n')).not.toContain('example.test'); // the address never reaches the log
    now += 3600 * 1000 + 1; // the hour ends
    await a.enqueue('next-hour', job('ann@example.test'));
    expect(inner.sent).toHaveLength(6);
  });

  it('0 turns the cap off', async () => {
    const inner = new Recorder();
    const queue = new CappedMailQueue(inner, new MemoryStore(), 0, Date.now, () => {});
    for (let i = 0; i < 10; i++) await queue.enqueue(`id-${i}`, job('ann@example.test'));
    expect(inner.sent).toHaveLength(10);
  });

  it.each(['refuses', 'hangs'] as const)(
    'when the store %s, mails still go (counted in process, the cap holding) and the outage is logged once',
    async (mode) => {
      const inner = new Recorder();
      const warnings: string[] = [];
      const queue = new CappedMailQueue(inner, failingStore(mode), 2, Date.now, (m) => warnings.push(m));
      const started = Date.now();
      for (let i = 0; i < 3; i++) await queue.enqueue(`id-${i}`, job('ann@example.test'));
      expect(Date.now() - started).toBeLessThan(3 * 250 + 500); // never waits on the store for long
      expect(inner.sent).toHaveLength(2);
      expect(warnings.filter((w) => w.includes('store is unavailable'))).toHaveLength(1);
    },
  );
});
