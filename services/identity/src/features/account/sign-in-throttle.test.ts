import { createHash } from 'node:crypto';
import { ApiError } from '../../errors';
import { MemoryStore } from '../../store';
import { SignInThrottle } from './sign-in-throttle';

describe('SignInThrottle', () => {
  const email = 'owner@example.com';
  const wrongPassword = () => Promise.reject(new ApiError('INVALID_EMAIL_OR_PASSWORD'));
  const outage = () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }));
  const setup = () => {
    const store = new MemoryStore();
    return { store, throttle: new SignInThrottle(store, { windowSec: 60, max: 2 }, Date.now) };
  };
  /** The counter as the throttle keys it: the email's hash. */
  const counted = async (store: MemoryStore) =>
    Number(await store.get(`sign-in-failures:${createHash('sha256').update(email).digest('base64url')}`));

  it('counts wrong passwords only: failures of any other kind are taken back', async () => {
    const { store, throttle } = setup();
    await expect(throttle.guard(email, wrongPassword)).rejects.toMatchObject({ code: 'INVALID_EMAIL_OR_PASSWORD' });
    expect(await counted(store)).toBe(1);
    for (let i = 0; i < 5; i++)
      await expect(throttle.guard(email, outage)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    await expect(throttle.guard(email, () => Promise.reject(new ApiError('EMAIL_NOT_VERIFIED')))).rejects.toThrow();
    expect(await counted(store)).toBe(1);
    // Still under the limit: the owner's attempt runs.
    await expect(throttle.guard(email, async () => 'signed in')).resolves.toBe('signed in');
  });

  it('still refuses once wrong passwords fill the window', async () => {
    const { throttle } = setup();
    for (let i = 0; i < 2; i++) await expect(throttle.guard(email, wrongPassword)).rejects.toThrow();
    await expect(throttle.guard(email, async () => 'signed in')).rejects.toMatchObject({ code: 'RATE_LIMITED' });
  });
});
