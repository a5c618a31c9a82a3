import { existsSync, readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Config, relyingParty } from '../config';
import { TrustedOrigins } from '../http/origins';
import { isSafeRedirect } from '../http/redirects';
import { serveSinglePageApp } from './single-page-app';

type CaptchaProvider = NonNullable<Config['captcha']['provider']>;

/** Each bot-check provider's widget script (`CAPTCHA_SCRIPT_URL` overrides it, e.g. a test's loopback stand-in). */
export const CAPTCHA_SCRIPT_URLS: Record<CaptchaProvider, string> = {
  'cloudflare-turnstile': 'https://challenges.cloudflare.com/turnstile/v0/api.js',
  'google-recaptcha': 'https://www.google.com/recaptcha/api.js',
  hcaptcha: 'https://js.hcaptcha.com/1/api.js',
};

/**
 * The sources each provider's documentation asks a Content-Security-Policy to allow for its widget, by directive:
 * Turnstile and reCAPTCHA a script and a frame (reCAPTCHA by path), hCaptcha also its styles and its calls.
 */
const CAPTCHA_SOURCES: Record<CaptchaProvider, Partial<Record<'script' | 'frame' | 'style' | 'connect', string[]>>> = {
  'cloudflare-turnstile': {
    script: ['https://challenges.cloudflare.com'],
    frame: ['https://challenges.cloudflare.com'],
  },
  'google-recaptcha': {
    script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
    frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
  },
  hcaptcha: {
    script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
  },
};

/**
 * What the configured bot check adds to each directive: its provider's sources, and the origin of a configured
 * `CAPTCHA_SCRIPT_URL` (a mirror or a stand-in) in the script and frame sources. Nothing without a provider.
 */
function captchaSources(config: Config): Record<'script' | 'frame' | 'style' | 'connect', string[]> {
  const { provider, scriptUrl } = config.captcha;
  const none = { script: [], frame: [], style: [], connect: [] };
  if (!provider) return none;
  const sources = { ...none, ...CAPTCHA_SOURCES[provider] };
  const extra = scriptUrl ? new URL(scriptUrl).origin : null;
  if (!extra) return sources;
  const plus = (list: string[]) => (list.includes(extra) ? list : [...list, extra]);
  return { ...sources, script: plus(sources.script), frame: plus(sources.frame) };
}

/** The names of the named providers (spec §1) on their buttons; a generic provider shows its displayName or id. */
const PROVIDER_NAMES: Record<string, string> = {
  apple: 'Apple',
  discord: 'Discord',
  facebook: 'Facebook',
  github: 'GitHub',
  microsoft: 'Microsoft',
  google: 'Google',
  huggingface: 'Hugging Face',
  spotify: 'Spotify',
  twitch: 'Twitch',
  twitter: 'X',
  dropbox: 'Dropbox',
  kick: 'Kick',
  linkedin: 'LinkedIn',
  gitlab: 'GitLab',
  tiktok: 'TikTok',
  reddit: 'Reddit',
  roblox: 'Roblox',
  vk: 'VK',
  zoom: 'Zoom',
};

/**
 * The pages' Content-Security-Policy: their own scripts and styles only (no inline script or style element), API
 * calls to this origin, images from here and the configured logo's origin, no framing; the configured bot-check
 * provider is the only third party allowed.
 */
export function hostedPagesCsp(config: Config): string {
  const captcha = captchaSources(config);
  const logo = config.hostedPages.logoUrl;
  const logoOrigin = logo && /^https?:\/\//i.test(logo) ? [new URL(logo).origin] : [];
  const list = (...items: string[]) => items.join(' ');
  return [
    "default-src 'none'",
    `script-src ${list("'self'", ...captcha.script)}`,
    `style-src ${list("'self'", ...captcha.style)}`,
    `img-src ${list("'self'", 'data:', ...logoOrigin)}`,
    `connect-src ${list("'self'", ...captcha.connect)}`,
    `frame-src ${captcha.frame.length ? list(...captcha.frame) : "'none'"}`,
    "font-src 'self'",
    "manifest-src 'self'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/**
 * The bot check as the pages need it to render the widget: the provider, its public site key (never the secret),
 * the script to load, and the API paths that demand a token (in the `x-captcha-response` header): the operator's
 * `captcha.endpoints` when set, else the routes that declare the check (`botChecked`). Null when off.
 */
function captchaConfig(config: Config, botChecked: readonly string[]) {
  const { provider, siteKey, scriptUrl, endpoints } = config.captcha;
  if (!provider || !siteKey) return null;
  return {
    provider,
    siteKey,
    scriptUrl: scriptUrl ?? CAPTCHA_SCRIPT_URLS[provider],
    endpoints: endpoints ?? [...botChecked],
  };
}

/**
 * Whether pages on `origin` can run passkey ceremonies against this service (docs/two-factor.md, Passkeys): the
 * relying party id is a domain (`PASSKEY_RP_ID`, by default PUBLIC_URL's host; browsers refuse an IP address) and
 * `origin` is one of its origins (`PASSKEY_ORIGINS`, by default PUBLIC_URL and the trusted origins on that domain).
 * Otherwise the browser or the service would refuse every ceremony, so the pages offer none.
 */
function passkeysUsableFrom(config: Config): (origin: string) => boolean {
  const rp = relyingParty(config);
  const domain = isIP(rp.id.replace(/^\[|\]$/g, '')) === 0;
  const origins = new TrustedOrigins(rp.origins);
  return (origin) => domain && origins.has(origin);
}

/**
 * What config.json tells the pages (hosted/src/config.ts reads it): the API, the branding, what to offer.
 * `passkeys`: whether the pages asking can use them (passkeysUsableFrom for their origin); `botChecked`: the API
 * paths whose routes declare the bot check.
 */
export function hostedPagesConfig(
  config: Config,
  callback: 'none' | 'allowed' | 'refused',
  passkeys: boolean,
  botChecked: readonly string[],
) {
  const pages = config.hostedPages;
  const emailPassword = config.emailAndPassword.enabled && pages.methods.emailPassword;
  const providers = config.social.providers;
  const social = (pages.methods.social ?? Object.keys(providers)).map((id) => ({
    id,
    name: providers[id]?.displayName ?? PROVIDER_NAMES[id] ?? id,
  }));
  return {
    api: config.basePath,
    productName: pages.productName,
    logoUrl: pages.logoUrl ?? null,
    colors: pages.colors,
    links: {
      support: pages.links.support ?? null,
      terms: pages.links.terms ?? null,
      privacy: pages.links.privacy ?? null,
      home: pages.links.home ?? null,
    },
    defaultLanguage: pages.defaultLanguage,
    methods: {
      emailPassword,
      signUp: emailPassword && pages.methods.signUp && !config.emailAndPassword.disableSignUp,
      social,
      passkey: pages.methods.passkey && passkeys,
      /** docs/passwordless.md: the sign-in page offers "Email me a link". */
      magicLink: config.magicLink.enabled,
      /** docs/passwordless.md: the sign-in page offers "Email me a code". */
      emailOtp: config.emailOtp.enabled,
    },
    /** Sign-up mails a verification link (the sign-up page then says to look for it). */
    verifyOnSignUp: config.emailVerification.sendOnSignUp || config.emailAndPassword.requireEmailVerification,
    password: { minLength: config.password.minLength, maxLength: config.password.maxLength },
    /** The second-factor step offers "trust this device" for this many days (0: not offered). */
    twoFactor: { trustDeviceDays: config.twoFactor.trustDeviceDays },
    callback,
    captcha: captchaConfig(config, botChecked),
  };
}

/** The built index.html with its <base> at the pages' path, so the bundle's relative URLs resolve under it. */
export function hostedPagesIndex(html: string, path: string): string {
  const withoutBase = html.replace(/<base\s[^>]*>/i, '');
  if (!/<head>/i.test(withoutBase)) throw new Error('hosted pages index.html has no <head>');
  return withoutBase.replace(/<head>/i, `<head>\n    <base href="${path}/" />`);
}

/** The page's query values that name where the browser goes next: its callback, and a new user's (a sign-in link's). */
const CALLBACKS = ['callbackURL', 'newUserCallbackURL'] as const;

function callbacksOf(request: FastifyRequest): string[] {
  const query = request.query as Record<string, unknown> | undefined;
  return CALLBACKS.flatMap((name) => {
    const value = query?.[name];
    return typeof value === 'string' ? [value] : Array.isArray(value) ? [String(value[0])] : [];
  });
}

/**
 * Serves the hosted sign-in pages under `hostedPages.path` (off by default): the built files, config.json from the
 * settings, and index.html for every page route (an SPA); a path that names no served file is a 404
 * (single-page-app.ts). A page asked with a `callbackURL` (or a `newUserCallbackURL`) the API would refuse
 * (spec §5: not relative and not on a trusted origin) is never shown with it: the browser goes to the error page.
 */
export async function registerHostedPages(app: FastifyInstance, config: Config, trusted: TrustedOrigins) {
  const pages = config.hostedPages;
  if (!pages.enabled) return;
  const root = resolve(pages.dir);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile))
    throw new Error(`HOSTED_PAGES_DIR: ${root} has no index.html (build the pages first: make hosted)`);
  const index = hostedPagesIndex(readFileSync(indexFile, 'utf8'), pages.path);
  const verdict = (request: FastifyRequest) => {
    const callbacks = callbacksOf(request);
    if (callbacks.length === 0) return 'none' as const;
    return callbacks.every((url) => isSafeRedirect(url, trusted)) ? ('allowed' as const) : ('refused' as const);
  };
  // The pages asking for config.json: a copy on another origin says so (its fetch is cross-origin, so it carries
  // Origin); the service's own pages are on PUBLIC_URL.
  const passkeysFrom = passkeysUsableFrom(config);
  const ownOrigin = new URL(config.publicUrl).origin;
  const passkeys = (request: FastifyRequest) => {
    const origin = request.headers.origin;
    return passkeysFrom(typeof origin === 'string' ? origin : ownOrigin);
  };
  const sendIndex = (request: FastifyRequest, reply: FastifyReply) => {
    if (verdict(request) === 'refused') {
      const lang = (request.query as Record<string, unknown>).lang;
      const query = new URLSearchParams({ error: 'INVALID_CALLBACK_URL' });
      if (typeof lang === 'string' && /^[A-Za-z-]{1,16}$/.test(lang)) query.set('lang', lang);
      return reply.redirect(`${pages.path}/error?${query}`, 303);
    }
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);
  };

  await app.register(
    async (scope) => {
      // "/auth" (no slash) would resolve the bundle's relative URLs against "/": send the browser to "/auth/".
      // Not API operations: out of the OpenAPI document.
      const page = { schema: { hide: true } };
      scope.get('/', page, (request, reply) => {
        const [pathname, search] = request.url.split(/\?(.*)/s);
        return pathname === pages.path
          ? reply.redirect(`${pages.path}/${search ? `?${search}` : ''}`, 301)
          : sendIndex(request, reply);
      });
      // Public facts only (no cookie is read): any origin may read them, a CDN copy of the pages included.
      scope.get('/config.json', page, (request, reply) =>
        reply
          .header('cache-control', 'no-store')
          .header('access-control-allow-origin', '*')
          .header('vary', 'Origin')
          .send(hostedPagesConfig(config, verdict(request), passkeys(request), app.routePolicies.botChecked())),
      );
      // The built config.json is for a CDN copy; here the service answers it from its settings (above).
      await serveSinglePageApp(scope, { prefix: pages.path, root, ownFiles: ['/config.json'], sendIndex });
    },
    { prefix: pages.path },
  );
}
