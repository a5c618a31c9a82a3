/**
 * What the pages are told at start, from `config.json` next to index.html. The identity service answers that file
 * itself from its settings (docs/hosted-pages.md); a copy deployed on a CDN may instead name the service's own
 * file in `source`, which is then read too (the service's answer wins). No inline script is ever needed.
 */
export interface PagesConfig {
  /** The API's base URL: a path on this origin (`/api/auth`) or an absolute URL. */
  api: string;
  /** Another config.json to read and merge over this one (a CDN copy naming the service's). */
  source?: string;
  productName?: string;
  logoUrl?: string | null;
  colors?: { accent?: string; accentText?: string };
  /** `home`: the product's home page, the way back where no callbackURL names one. */
  links?: { support?: string | null; terms?: string | null; privacy?: string | null; home?: string | null };
  defaultLanguage?: string;
  /**
   * `passkey`: the sign-in page offers passkeys and the security page manages them (the service's relying party
   * accepts the pages' origin); absent from an older service's file, so off. `magicLink` and `emailOtp` likewise.
   */
  methods?: {
    emailPassword: boolean;
    signUp: boolean;
    social: Array<{ id: string; name: string }>;
    passkey?: boolean;
    /** The service mails sign-in links (docs/passwordless.md): the sign-in page offers "Email me a link". */
    magicLink?: boolean;
    /** The service mails sign-in codes: the sign-in page offers "Email me a code". */
    emailOtp?: boolean;
  };
  password?: { minLength: number; maxLength: number };
  /** Sign-up mails a verification link. */
  verifyOnSignUp?: boolean;
  /** The second factor: how long "trust this device" lasts (0: the API ignores it, so the box is not offered). */
  twoFactor?: { trustDeviceDays: number };
  /**
   * The service's verdict on the `callbackURL` (and `newUserCallbackURL`) this file was asked with (its trusted-origin
   * check): refused when either is.
   */
  callback?: 'none' | 'allowed' | 'refused';
  /** The bot check, when the service demands one (captcha.tsx renders its widget). */
  captcha?: CaptchaSettings | null;
}

/** The bot check as config.json names it: never the secret, only what the widget needs. */
export interface CaptchaSettings {
  provider: 'cloudflare-turnstile' | 'google-recaptcha' | 'hcaptcha';
  /** The provider's public site key. */
  siteKey: string;
  /** The provider's widget script (or a stand-in the service was configured with). */
  scriptUrl: string;
  /** The API paths that demand a token (`/sign-in/email`, …). */
  endpoints: string[];
}

export type LoadedConfig = PagesConfig & Required<Pick<PagesConfig, 'productName' | 'methods' | 'password'>>;

const DEFAULTS: Omit<LoadedConfig, 'api'> = {
  productName: 'Identity',
  methods: { emailPassword: true, signUp: true, social: [], passkey: false },
  password: { minLength: 8, maxLength: 128 },
};

/** The callbacks a page was opened with, for the service's verdict. */
export type Callbacks = Record<'callbackURL' | 'newUserCallbackURL', string | null>;

async function read(url: string, callbacks: Callbacks): Promise<PagesConfig> {
  const target = new URL(url, document.baseURI);
  for (const [name, value] of Object.entries(callbacks)) if (value !== null) target.searchParams.set(name, value);
  const response = await fetch(target, { credentials: 'omit', cache: 'no-store' });
  if (!response.ok) throw new Error(`config.json: ${response.status}`);
  return (await response.json()) as PagesConfig;
}

export async function loadConfig(callbacks: Callbacks): Promise<LoadedConfig> {
  let config = await read('config.json', callbacks);
  if (config.source) {
    const remote = await read(config.source, callbacks);
    // A relative API path in the service's file is relative to the service, not to this copy's origin.
    const source = new URL(config.source, document.baseURI);
    config = { ...config, ...remote, api: remote.api ? new URL(remote.api, source).toString() : config.api };
  }
  return { ...DEFAULTS, ...config };
}

/** The API base as an absolute URL (the better-auth client wants one). */
export const apiBase = (config: PagesConfig): string => new URL(config.api, document.baseURI).toString();
