import { type KeyValueStore, MemoryStore } from '../store';
import { MailCap } from './cap';
import type { MailJob } from './jobs';

/** The mails a cap lets through. */
class Recorder {
  readonly sent: MailJob[] = [];
  constructor(private readonly cap: MailCap) {}
  async send(job: MailJob) {
    if (await this.cap.allow(job)) this.sent.push(job);
  }
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

describe('MailCap', () => {
  it('passes `max` mails of one kind per address and window, counted in the shared store by every instance', async () => {
    let now = 0;
    const shared = new MemoryStore(() => now);
    const warnings: string[] = [];
    const a = new MailCap(
      shared,
      3,
      () => now,
      (m) => warnings.push(m),
    );
    const b = new MailCap(
      shared,
      3,
      () => now,
      (m) => warnings.push(m),
    );
    const sent: MailJob[] = [];
    const send = async (cap: MailCap, mail: MailJob) => {
      if (await cap.allow(mail)) sent.push(mail);
    };
    for (let i = 0; i < 4; i++) await send(i % 2 ? a : b, job('Ann@Example.test'));
    await send(a, job('ann@example.test'));
    expect(sent).toHaveLength(3);
    await send(a, job('ann@example.test', 'verify-email'));
    await send(b, job('bob@example.test'));
    expect(sent).toHaveLength(5);
    expect(warnings.join('\n')).not.toContain('example.test'); // the address never reaches the log
    now += 3600 * 1000 + 1; // the hour ends
    await send(a, job('ann@example.test'));
    expect(sent).toHaveLength(6);
  });

  it('0 turns the cap off', async () => {
    const capped = new Recorder(new MailCap(new MemoryStore(), 0, Date.now, () => {}));
    for (let i = 0; i < 10; i++) await capped.send(job('ann@example.test'));
    expect(capped.sent).toHaveLength(10);
  });

  it.each(['refuses', 'hangs'] as const)(
    'when the store %s, mails still go (counted in process, the cap holding) and the outage is logged once',
    async (mode) => {
      const warnings: string[] = [];
      const capped = new Recorder(new MailCap(failingStore(mode), 2, Date.now, (m) => warnings.push(m)));
      const started = Date.now();
      for (let i = 0; i < 3; i++) await capped.send(job('ann@example.test'));
      expect(Date.now() - started).toBeLessThan(3 * 250 + 500); // never waits on the store for long
      expect(capped.sent).toHaveLength(2);
      expect(warnings.filter((w) => w.includes('store is unavailable'))).toHaveLength(1);
    },
  );
});
