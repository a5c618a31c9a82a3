import type { ResealCount, ResealOptions } from './crypto/reseal';
import type { Features } from './wiring';

/**
 * `secrets:reseal` (docs/security.md, rotation): every value sealed at rest, sealed again under the current
 * AUTH_SECRET, feature by feature: TOTP secrets (and with them the backup codes, keyed by the secret), provider
 * tokens, webhook endpoint secrets, the signing keys' private keys. Run with the new secret in AUTH_SECRET and the
 * old one still in AUTH_SECRET_PREVIOUS; safe to run while the service serves, to stop anywhere and to run again.
 */
export async function resealStoredSecrets(
  features: Pick<Features, 'twoFactor' | 'social' | 'webhook' | 'jwt'>,
  options: ResealOptions,
): Promise<ResealCount[]> {
  const counts: ResealCount[] = [];
  for (const feature of [features.twoFactor, features.social, features.webhook, features.jwt])
    counts.push(await feature.reseal(options));
  return counts;
}

/** The command's report: one line per kind of value, then the rows no configured secret opens, if any. */
export function describeReseal(counts: ResealCount[]): { text: string; unreadable: number } {
  const lines = counts.map(
    (c) =>
      `${c.label}: ${c.values} values, ${c.resealed} sealed again, ${c.current} already current, ` +
      `${c.unreadable} unreadable`,
  );
  const unreadable = counts.reduce((n, c) => n + c.unreadable, 0);
  for (const c of counts)
    if (c.unreadableKeys.length)
      lines.push(
        `unreadable ${c.label} (rows ${c.unreadableKeys.join(', ')}${c.unreadable > c.unreadableKeys.length ? ', …' : ''})`,
      );
  if (unreadable)
    lines.push(
      'values no configured secret opens: put the secret they were sealed under back in AUTH_SECRET_PREVIOUS ' +
        'and run this again; otherwise they are lost (docs/security.md)',
    );
  return { text: lines.join('\n'), unreadable };
}
