/**
 * The product's address (where users sign in), from the build's VITE_PRODUCT_URL: the impersonation banner links to
 * it. Only an http(s) address is used; unset or anything else: no link.
 */
export function productUrl(configured: unknown = import.meta.env?.VITE_PRODUCT_URL): string | null {
  if (typeof configured !== 'string' || !configured.trim()) return null;
  try {
    const url = new URL(configured.trim());
    return url.protocol === 'https:' || url.protocol === 'http:' ? url.toString() : null;
  } catch {
    return null;
  }
}
