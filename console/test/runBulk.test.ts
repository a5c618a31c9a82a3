import { describe, expect, it } from 'vitest';
import { runBulk } from '../src/users/runBulk';

describe('runBulk: a bulk action, one user after the other', () => {
  it('answers each outcome in order; a refusal does not stop the others', async () => {
    const seen: string[] = [];
    const targets = [
      { id: 'u1', email: 'ada@example.com' },
      { id: 'u2', email: 'root@example.com' },
      { id: 'u3', email: 'bob@example.com' },
    ];
    const results = await runBulk(targets, async (user) => {
      seen.push(user.id as string);
      if (user.id === 'u2') throw new Error('You cannot ban yourself');
    });
    expect(seen).toEqual(['u1', 'u2', 'u3']);
    expect(results).toEqual([
      { id: 'u1', email: 'ada@example.com', ok: true },
      { id: 'u2', email: 'root@example.com', ok: false, error: 'You cannot ban yourself' },
      { id: 'u3', email: 'bob@example.com', ok: true },
    ]);
  });

  it('runs one at a time', async () => {
    let running = 0;
    let most = 0;
    await runBulk(
      [1, 2, 3].map((n) => ({ id: n, email: `${n}@example.com` })),
      async () => {
        running++;
        most = Math.max(most, running);
        await new Promise((r) => setTimeout(r, 5));
        running--;
      },
    );
    expect(most).toBe(1);
  });
});
