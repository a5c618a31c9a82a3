import type { Config } from './schema';

const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/** A link or logo the pages show: an http(s) URL (https in production) or a path on this origin. */
function checkUrl(name: string, value: string | undefined, production: boolean, bad: (why: string) => Error) {
  if (value === undefined) return;
  if (value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')) return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad(`${name}: expected an https URL or a path`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !production))
    throw bad(`${name}: expected an https URL${production ? '' : ' (http outside production)'} or a path`);
  if (url.username || url.password) throw bad(`${name}: a URL with credentials is refused`);
}

/** The hosted pages' settings beyond their schema: a path of their own, URLs a browser may follow, known providers. */
export function finishHostedPages(config: Config, bad: (why: string) => Error): void {
  const pages = config.hostedPages;
  const production = config.env === 'production';
  const taken = [config.basePath, '/console', '/metrics'];
  if (pages.enabled && taken.some((path) => overlaps(pages.path, path)))
    throw bad(`HOSTED_PAGES_PATH: "${pages.path}" overlaps the API (${config.basePath}), /console or /metrics`);
  checkUrl('HOSTED_PAGES_LOGO_URL', pages.logoUrl, production, bad);
  checkUrl('HOSTED_PAGES_SUPPORT_URL', pages.links.support, production, bad);
  checkUrl('HOSTED_PAGES_TERMS_URL', pages.links.terms, production, bad);
  checkUrl('HOSTED_PAGES_PRIVACY_URL', pages.links.privacy, production, bad);
  for (const id of pages.methods.social ?? [])
    if (!Object.hasOwn(config.social.providers, id))
      throw bad(`setting "hostedPages.methods.social" names "${id}", which is not a configured social provider`);
}
