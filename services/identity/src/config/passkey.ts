import type { Config } from './schema';

/** The WebAuthn relying party passkeys are made for and used with (docs/two-factor.md "Passkeys"). */
export interface RelyingParty {
  /** A host name (no scheme, no port): the pages' host or a parent domain of it. */
  id: string;
  /** What authenticators show next to the account. */
  name: string;
  /** The origins of the pages a ceremony may run on; `https://*.example.com` matches any subdomain. */
  origins: string[];
}

const HOST_NAME = /^(?=.{1,253}$)[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*$/;

/** The host an origin names (`*.` kept for a wildcard origin). */
function hostOf(origin: string): string {
  const wildcard = origin.includes('://*.');
  const host = new URL(wildcard ? origin.replace('://*.', '://wildcard.') : origin).hostname;
  return wildcard ? host.replace(/^wildcard\./, '*.') : host;
}

/**
 * Whether a page on `origin` may use the relying party id `rpId` (WebAuthn: the id is the page's host or a parent
 * domain of it). A wildcard origin's pages are subdomains of its suffix.
 */
export function originFitsRpId(origin: string, rpId: string): boolean {
  const host = hostOf(origin);
  const name = host.startsWith('*.') ? host.slice(2) : host;
  return name === rpId || name.endsWith(`.${rpId}`);
}

/**
 * The relying party from the settings: PASSKEY_RP_ID, else PUBLIC_URL's host name; PASSKEY_RP_NAME, else the hosted
 * pages' product name; PASSKEY_ORIGINS, else those of PUBLIC_URL and TRUSTED_ORIGINS whose pages can use the id.
 */
export function relyingParty(config: Pick<Config, 'passkey' | 'publicUrl' | 'trustedOrigins' | 'hostedPages'>) {
  const { passkey } = config;
  const id = (passkey.rpId ?? new URL(config.publicUrl).hostname).toLowerCase();
  const origins =
    passkey.origins ?? [config.publicUrl, ...config.trustedOrigins].filter((origin) => originFitsRpId(origin, id));
  return { id, name: passkey.rpName ?? config.hostedPages.productName, origins } satisfies RelyingParty;
}

/** Refuses a relying party no browser would accept: a malformed id, or an origin whose pages cannot use it. */
export function finishPasskey(config: Config, bad: (why: string) => Error): void {
  if (config.passkey.rpId !== undefined && !HOST_NAME.test(config.passkey.rpId.toLowerCase()))
    throw bad(`PASSKEY_RP_ID: "${config.passkey.rpId}" is not a host name (no scheme, port or path)`);
  const rp = relyingParty(config);
  for (const origin of config.passkey.origins ?? [])
    if (!originFitsRpId(origin, rp.id))
      throw bad(`PASSKEY_ORIGINS: the pages of ${origin} cannot use the relying party id "${rp.id}"`);
  if (rp.origins.length === 0)
    throw bad(
      `PASSKEY_ORIGINS: neither PUBLIC_URL nor TRUSTED_ORIGINS can use the relying party id "${rp.id}"; set the origins`,
    );
}
