import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * The sign-in seam is the only place that makes a session after a sign-in (docs/architecture.md "The sign-in
 * seam"): a sign-in method's service answers a proven identity, its route hands it to the seam. Besides the seam,
 * only two changes make sessions, and neither is a sign-in: an operator's impersonation, and the new session a
 * password change rotates to.
 */
const SRC = join(__dirname, '..', '..');
const ALLOWED = new Set([
  'features/sign-in/seam.ts',
  'features/admin/impersonation.service.ts', // impersonation
  'features/account/password.service.ts', // change-password with revokeOtherSessions
]);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

describe('session creation', () => {
  it('happens only in the sign-in seam, an impersonation and a password change', () => {
    const makers = sources(SRC)
      .filter((path) => /\bsessions\.create\(|\bSessionService\b[^;]*\.create\(/.test(readFileSync(path, 'utf8')))
      .map((path) => relative(SRC, path));
    expect(makers.sort()).toEqual([...ALLOWED].sort());
  });

  it('the check sees a call written the way a route would write it', () => {
    expect(/\bsessions\.create\(/.test('const s = await ctx.sessions.create({ user });')).toBe(true);
  });
});
