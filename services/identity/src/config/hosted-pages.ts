import type { Config } from './schema';

const overlaps = (a: string, b: string) => a === b || a.startsWith(`${b}/`) || b.startsWith(`${a}/`);

/**
 * A link or logo the pages show: an http(s) URL (https in production) or a path on this origin; with
 * `paths: false` (a script of another origin) a URL only.
 */
function checkUrl(
  name: string,
  value: string | undefined,
  production: boolean,
  bad: (why: string) => Error,
  paths = true,
) {
  if (value === undefined) return;
  const orPath = paths ? ' or a path' : '';
  if (paths && value.startsWith('/') && !value.startsWith('//') && !value.includes('\\')) return;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw bad(`${name}: expected an https URL${orPath}`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && !production))
    throw bad(`${name}: expected an https URL${production ? '' : ' (http outside production)'}${orPath}`);
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
  checkUrl('HOSTED_PAGES_HOME_URL', pages.links.home, production, bad);
  // The bot check's widget runs in the pages: its script must be a plain https URL (http outside production), and
  // the pages cannot render it without the site key.
  const captcha = config.captcha;
  checkUrl('CAPTCHA_SCRIPT_URL', captcha.scriptUrl, production, bad, false);
  if (pages.enabled && captcha.provider && !captcha.siteKey)
    throw bad('CAPTCHA_SITE_KEY: required when the hosted pages are enabled with a bot check (their widget needs it)');
  for (const id of pages.methods.social ?? [])
    if (!Object.hasOwn(config.social.providers, id))
      throw bad(`setting "hostedPages.methods.social" names "${id}", which is not a configured social provider`);
}
