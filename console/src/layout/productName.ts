/** HOSTED_PAGES_PRODUCT_NAME's default: the name when nothing else is known. */
const DEFAULT_PRODUCT_NAME = 'Identity';

/**
 * The product the console belongs to, which its sign-in screen names: the `identity-product` meta tag (the identity
 * service fills it from HOSTED_PAGES_PRODUCT_NAME, the hosted pages' name, when it serves the console), else the
 * build's VITE_PRODUCT_NAME (a console served on its own, e.g. the nginx image), else the setting's default.
 */
export function productName(
  meta: unknown = globalThis.document?.querySelector('meta[name="identity-product"]')?.getAttribute('content'),
  built: unknown = import.meta.env?.VITE_PRODUCT_NAME,
): string {
  for (const value of [meta, built]) if (typeof value === 'string' && value.trim()) return value.trim();
  return DEFAULT_PRODUCT_NAME;
}
