/**
 * Trusted origins: PUBLIC_URL's origin plus TRUSTED_ORIGINS, where `https://*.example.com` matches any
 * subdomain (not the apex). Comparison is on parsed origins, never on string prefixes.
 */
export class TrustedOrigins {
  private readonly exact = new Set<string>();
  private readonly wildcards: Array<{ scheme: string; suffix: string }> = [];

  constructor(origins: string[]) {
    for (const origin of origins) {
      const m = /^(https?):\/\/\*\.(.+)$/.exec(origin);
      if (m) this.wildcards.push({ scheme: `${m[1]}:`, suffix: `.${m[2].toLowerCase()}` });
      else this.exact.add(origin);
    }
  }

  /** `origin` must be a serialized origin (scheme://host[:port]) or a full URL. */
  has(originOrUrl: string): boolean {
    let url: URL;
    try {
      url = new URL(originOrUrl);
    } catch {
      return false;
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
    if (url.username || url.password) return false;
    if (this.exact.has(url.origin)) return true;
    return this.wildcards.some((w) => url.protocol === w.scheme && url.host.endsWith(w.suffix));
  }
}
