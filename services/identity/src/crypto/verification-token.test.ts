import { randomBytes } from 'node:crypto';
import { VerificationTokens } from './verification-token';

describe('VerificationTokens (HS256 links)', () => {
  const now = Date.now();
  const clock = () => now;
  const [current, previous] = [randomBytes(32), randomBytes(32)];

  it('signs with the first key and verifies under any of them (a rotated secret: the previous keys follow it)', async () => {
    const before = await new VerificationTokens([previous], clock).sign('a@example.com', 3600, 'b@example.com');
    const rotated = new VerificationTokens([current, previous], clock);
    expect(await rotated.verify(before.token)).toEqual({
      ok: true,
      claims: { email: 'a@example.com', updateTo: 'b@example.com', jti: before.jti },
    });
    expect(await new VerificationTokens([current], clock).verify(before.token)).toEqual({
      ok: false,
      error: 'invalid_token',
    });
    const after = await rotated.sign('c@example.com', 3600);
    expect((await new VerificationTokens([current], clock).verify(after.token)).ok).toBe(true);
    expect(await new VerificationTokens([previous], clock).verify(after.token)).toEqual({
      ok: false,
      error: 'invalid_token',
    });
  });

  it('reports an expired link made under a previous key as expired, not invalid', async () => {
    const old = await new VerificationTokens([previous], clock).sign('a@example.com', 60);
    const later = new VerificationTokens([current, previous], () => now + 120_000);
    expect(await later.verify(old.token)).toEqual({ ok: false, error: 'token_expired' });
  });
});
