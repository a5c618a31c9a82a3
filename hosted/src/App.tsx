import { lazy, type ReactNode, Suspense } from 'react';
import { usePages } from './context';
import { LANGUAGE_NAMES, LANGUAGE_TAGS, LANGUAGES, type Language } from './i18n';
import type { Route } from './links';
import { AccountDeleted } from './pages/AccountDeleted';
import { DeleteAccount } from './pages/DeleteAccount';
import { EmailChanged } from './pages/EmailChanged';
import { EmailCode } from './pages/EmailCode';
import { EmailVerified } from './pages/EmailVerified';
import { ErrorPage } from './pages/ErrorPage';
import { ForgotPassword } from './pages/ForgotPassword';
import { Invitation } from './pages/Invitation';
import { MagicLink } from './pages/MagicLink';
import { ResetPassword } from './pages/ResetPassword';
import { SignIn } from './pages/SignIn';
import { SignedOut, SignOut } from './pages/SignOut';
import { SignUp } from './pages/SignUp';
import { TwoFactor } from './pages/TwoFactor';

/** The account security page (and the QR code library it loads) is a chunk of its own: the first page stays small. */
const Security = lazy(() => import('./pages/Security').then((m) => ({ default: m.Security })));

/** What the address said when the page loaded (tokens already taken out of it by main.tsx). */
export interface Arrival {
  route: Route;
  token: string | null;
  error: string | null;
  /** The invitation page's id (the last segment of its path, or `?id=`). */
  invitationId: string;
}

export function App({ arrival }: { arrival: Arrival }) {
  return <Layout>{page(arrival)}</Layout>;
}

function page({ route, token, error, invitationId }: Arrival): ReactNode {
  switch (route) {
    case 'sign-in':
      return <SignIn />;
    case 'sign-up':
      return <SignUp />;
    case 'forgot-password':
      return <ForgotPassword />;
    case 'reset-password':
      return <ResetPassword token={token} linkError={error} />;
    case 'email-verified':
      return <EmailVerified linkError={error} />;
    case 'email-changed':
      return <EmailChanged linkError={error} />;
    case 'sign-out':
      return <SignOut />;
    case 'signed-out':
      return <SignedOut />;
    case 'account-deleted':
      return <AccountDeleted />;
    case 'delete-account':
      return <DeleteAccount token={token} />;
    case 'invitation':
      return <Invitation id={invitationId} linkError={error} />;
    case 'error':
      return <ErrorPage code={error ?? 'unknown_error'} />;
    case 'two-factor':
      return <TwoFactor />;
    case 'magic-link':
      return <MagicLink token={token} />;
    case 'email-code':
      return <EmailCode />;
    case 'security':
      return (
        <Suspense fallback={<Loading />}>
          <Security />
        </Suspense>
      );
  }
}

function Loading() {
  const { t } = usePages();
  return <p role="status">{t('loading')}</p>;
}

function Layout({ children }: { children: ReactNode }) {
  const { t, config, language } = usePages();
  const { links } = config;
  return (
    <div className="shell">
      <header className="brand">
        {config.logoUrl ? (
          <img className="logo" src={config.logoUrl} alt={config.productName} />
        ) : (
          <span className="product">{config.productName}</span>
        )}
      </header>
      <main className="card">{children}</main>
      <footer className="footer">
        <LanguagePicker current={language} label={t('language')} />
        <nav aria-label={config.productName}>
          {links?.support && <a href={links.support}>{t('support')}</a>}
          {links?.terms && <a href={links.terms}>{t('terms')}</a>}
          {links?.privacy && <a href={links.privacy}>{t('privacy')}</a>}
        </nav>
      </footer>
    </div>
  );
}

/** Picking a language reloads the page with `?lang=` (a signed-in user's stored language still comes first). */
function LanguagePicker({ current, label }: { current: Language; label: string }) {
  const onChange = (event: React.ChangeEvent<HTMLSelectElement>) => {
    const url = new URL(window.location.href);
    url.searchParams.set('lang', event.target.value);
    window.location.assign(url.toString());
  };
  return (
    <div className="language">
      <label htmlFor="language">{label}</label>
      <select id="language" value={current} onChange={onChange}>
        {LANGUAGES.map((language) => (
          <option key={language} value={language} lang={LANGUAGE_TAGS[language]}>
            {LANGUAGE_NAMES[language]}
          </option>
        ))}
      </select>
    </div>
  );
}
