import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App, type Arrival } from './App';
import { call, makeClient } from './client';
import { apiBase, loadConfig } from './config';
import { type Pages, PagesContext } from './context';
import { chooseLanguage, LANGUAGE_TAGS, loadCatalogue, redirectErrorTitle, translator } from './i18n';
import { pageHref, pageTarget, routeOf, withoutParams } from './links';
import './styles.css';
import { arrivalToken } from './tokens';

const COLOR = /^#[0-9a-fA-F]{6}$/;

async function boot() {
  const here = new URL(window.location.href);
  const params = here.searchParams;
  const callbackURL = params.get('callbackURL');
  const newUserCallbackURL = params.get('newUserCallbackURL');
  const basePath = new URL(document.baseURI).pathname;
  let route = routeOf(here.pathname, basePath) ?? 'error';
  let error = params.get('error') ?? (routeOf(here.pathname, basePath) ? null : 'not_found');
  // A token is read once and taken out of the address and the history entry before anything is shown; the pages
  // that need it after a reload keep it in this tab (tokens.ts).
  const token = arrivalToken(route, params.get('token'), error);
  if (params.has('token')) window.history.replaceState(null, '', withoutParams(here.href, ['token']));

  const config = await loadConfig({ callbackURL, newUserCallbackURL });
  const base = apiBase(config);
  const client = makeClient(base);
  const session = await call(() => client.getSession());
  const user = ((session.data as { user?: unknown } | null)?.user ?? null) as {
    email: string;
    name: string;
    language?: string | null;
  } | null;
  const language = chooseLanguage({
    stored: user?.language,
    query: params.get('lang'),
    browser: navigator.languages,
    fallback: config.defaultLanguage,
  });
  const t = translator(await loadCatalogue(language));
  let carry = { callbackURL, newUserCallbackURL, lang: params.get('lang') };
  // The service refused a callback (not a trusted origin, or not a plain path): the error page, never a redirect.
  if ((callbackURL !== null || newUserCallbackURL !== null) && config.callback === 'refused') {
    carry = { ...carry, callbackURL: null, newUserCallbackURL: null };
    route = 'error';
    error = 'INVALID_CALLBACK_URL';
    window.history.replaceState(null, '', pageHref('error', carry, { error }));
  }
  // The second factor (docs/two-factor.md): a social provider's return asking for it lands on the second-factor
  // step; a browser already signed in has nothing to confirm; the security page needs a signed-in user.
  const asked = route;
  if (route === 'sign-in' && !user && params.get('twoFactorRedirect') === 'true') route = 'two-factor';
  if (route === 'two-factor' && user) route = 'sign-in';
  if (route !== asked) window.history.replaceState(null, '', pageHref(route, carry));
  else if (params.has('twoFactorRedirect'))
    window.history.replaceState(null, '', withoutParams(window.location.href, ['twoFactorRedirect']));
  if (route === 'security' && !user) {
    const back = pageTarget('security', carry, { baseURI: document.baseURI, apiBase: base });
    window.location.replace(pageHref('sign-in', { ...carry, callbackURL: back }));
    return;
  }
  // Signed in already and a product to go back to: go back at once.
  if (route === 'sign-in' && user && carry.callbackURL) {
    window.location.replace(carry.callbackURL);
    return;
  }

  document.documentElement.lang = LANGUAGE_TAGS[language];
  const root = document.documentElement.style;
  if (config.colors?.accent && COLOR.test(config.colors.accent)) root.setProperty('--accent', config.colors.accent);
  if (config.colors?.accentText && COLOR.test(config.colors.accentText))
    root.setProperty('--accent-text', config.colors.accentText);

  const pages: Pages = { config, client, apiBase: base, language, t, carry, user };
  const invitationId = route === 'invitation' ? (here.pathname.split('/').filter(Boolean).pop() ?? '') : '';
  const arrival: Arrival = { route, token, error, invitationId };
  const titles = {
    'sign-in': t('signInTitle'),
    'sign-up': t('signUpTitle'),
    'forgot-password': t('forgotTitle'),
    'reset-password': t('resetTitle'),
    'email-verified': error ? t('linkExpiredTitle') : t('verifiedTitle'),
    'email-changed': error ? t('linkExpiredTitle') : t('emailChangedTitle'),
    'sign-out': t('signedOutTitle'),
    'signed-out': t('signedOutTitle'),
    'account-deleted': t('deletedTitle'),
    'delete-account': t('deleteTitle'),
    invitation: t('invitationTitle'),
    error: t(redirectErrorTitle(error ?? 'unknown_error')),
    'two-factor': t('twoFactorTitle'),
    security: t('securityTitle'),
    'magic-link': token ? t('magicLinkConfirmTitle') : t('magicLinkTitle'),
    'email-code': t('emailCodeTitle'),
  } as const;
  document.title = `${titles[route]} · ${config.productName}`;
  createRoot(document.getElementById('root')!).render(
    <StrictMode>
      <PagesContext.Provider value={pages}>
        <App arrival={arrival} />
      </PagesContext.Provider>
    </StrictMode>,
  );
}

boot().catch(() => {
  // No configuration or no service: a plain sentence, in the one language we have without a catalogue.
  const root = document.getElementById('root')!;
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.textContent = 'The sign-in service could not be reached. Please try again later.';
  root.replaceChildren(p);
});
