import { useCallback, useEffect, useRef, useState } from 'react';
import type { CaptchaSettings } from './config';
import { usePages } from './context';
import { LANGUAGE_TAGS } from './i18n';
import { Notice } from './ui';

/**
 * The bot check's widget (docs/hosted-pages.md): when config.json names a provider and the form's API path is one
 * the service checks, the provider's script is loaded (its origins are the only third party the pages' CSP
 * allows) and its widget rendered explicitly; the token it hands over goes with the call in the header the service
 * reads. A token is single-use: after any refused call the widget is reset for a new one.
 */

/** The header the service reads the token from (better-auth's captcha plugin's). */
export const CAPTCHA_HEADER = 'x-captcha-response';

/** The part of Turnstile's, reCAPTCHA's and hCaptcha's browser APIs the pages use (the three share it). */
interface WidgetApi {
  render(container: HTMLElement, options: Record<string, unknown>): string | number;
  reset(id?: string | number): void;
  remove?(id?: string | number): void;
}

/** The global each provider's script defines. */
const GLOBALS: Record<CaptchaSettings['provider'], string> = {
  'cloudflare-turnstile': 'turnstile',
  'google-recaptcha': 'grecaptcha',
  hcaptcha: 'hcaptcha',
};

/** The script calls this global when its API is ready (`?onload=`, which the three providers accept). */
const ONLOAD = 'hostedPagesCaptchaReady';
const LOAD_TIMEOUT_MS = 20_000;

let loading: Promise<WidgetApi> | null = null;

function loadScript(settings: CaptchaSettings, tag: string): Promise<WidgetApi> {
  if (loading) return loading;
  loading = new Promise<WidgetApi>((resolve, reject) => {
    const scope = window as unknown as Record<string, unknown>;
    const fail = () => {
      loading = null;
      reject(new Error('captcha script not loaded'));
    };
    const timer = window.setTimeout(fail, LOAD_TIMEOUT_MS);
    scope[ONLOAD] = () => {
      window.clearTimeout(timer);
      const api = scope[GLOBALS[settings.provider]] as WidgetApi | undefined;
      if (api && typeof api.render === 'function') resolve(api);
      else fail();
    };
    const url = new URL(settings.scriptUrl);
    url.searchParams.set('onload', ONLOAD);
    url.searchParams.set('render', 'explicit');
    // reCAPTCHA and hCaptcha take the language on the script; Turnstile takes it on the widget (below).
    if (settings.provider !== 'cloudflare-turnstile') url.searchParams.set('hl', tag);
    const script = document.createElement('script');
    script.src = url.toString();
    script.async = true;
    script.onerror = () => {
      window.clearTimeout(timer);
      script.remove();
      fail();
    };
    document.head.append(script);
  });
  return loading;
}

export interface Captcha {
  /** The widget (null when this form's path needs no bot check). */
  widget: React.ReactNode;
  /** Why the call cannot go yet: no token (the widget not done), else null. */
  missing: () => string | null;
  /** The call's fetch options: the token in its header (none when no check is needed). */
  fetchOptions: () => { headers: Record<string, string> } | undefined;
  /** After a refused call: the token is spent, the widget asks again. */
  reset: () => void;
}

/** The bot check for a form whose call goes to `endpoint` (an API path such as `/sign-in/email`). */
export function useCaptcha(endpoint: string): Captcha {
  const { config, language, t } = usePages();
  const settings = config.captcha?.endpoints.includes(endpoint) ? config.captcha : null;
  const container = useRef<HTMLDivElement>(null);
  const widget = useRef<{ api: WidgetApi; id: string | number } | null>(null);
  const token = useRef<string | null>(null);
  const [failed, setFailed] = useState(false);
  const tag = LANGUAGE_TAGS[language];

  useEffect(() => {
    if (!settings) return;
    let live = true;
    loadScript(settings, tag).then(
      (api) => {
        if (!live || !container.current) return;
        const dark = window.matchMedia?.('(prefers-color-scheme: dark)').matches;
        // The three providers' normal widget is about 300 px wide; a narrower card gets the compact one.
        const compact = container.current.clientWidth < 300;
        const id = api.render(container.current, {
          sitekey: settings.siteKey,
          callback: (value: string) => {
            token.current = value;
          },
          'expired-callback': () => {
            token.current = null;
          },
          'error-callback': () => {
            token.current = null;
          },
          theme: settings.provider === 'cloudflare-turnstile' ? 'auto' : dark ? 'dark' : 'light',
          size: compact ? 'compact' : 'normal',
          ...(settings.provider === 'cloudflare-turnstile' ? { language: tag } : {}),
        });
        widget.current = { api, id };
      },
      () => {
        if (live) setFailed(true);
      },
    );
    return () => {
      live = false;
      const current = widget.current;
      widget.current = null;
      token.current = null;
      try {
        current?.api.remove?.(current.id);
      } catch {
        // The provider already dropped it.
      }
    };
  }, [settings, tag]);

  const reset = useCallback(() => {
    token.current = null;
    const current = widget.current;
    if (current) current.api.reset(current.id);
  }, []);

  return {
    widget: settings ? (
      <div className="captcha">
        <div ref={container} />
        {failed && <Notice kind="error">{t('captchaLoadFailed')}</Notice>}
      </div>
    ) : null,
    missing: () => (settings && !token.current ? 'CAPTCHA_REQUIRED' : null),
    fetchOptions: () => (settings && token.current ? { headers: { [CAPTCHA_HEADER]: token.current } } : undefined),
    reset,
  };
}
