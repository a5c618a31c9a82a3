import QRCode from 'qrcode';
import { type ReactNode, useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { call } from '../client';
import { usePages } from '../context';
import { apiErrorKey } from '../i18n';
import { pageHref, pageTarget } from '../links';
import { LiveRegion, Notice, Submit } from '../ui';
import { Passkeys } from './Passkeys';
import { CodeField } from './TwoFactor';

/** `GET /two-factor/status` (docs/two-factor.md, enrolling). */
interface Status {
  enabled: boolean;
  totp: boolean;
  backupCodesRemaining: number;
}

type Action = 'enable' | 'codes' | 'disable';
type Step =
  | { kind: 'overview'; done?: 'enabled' | 'disabled' }
  | { kind: 'password'; action: Action }
  | { kind: 'scan'; uri: string; qr: string; codes: string[] }
  | { kind: 'codes'; codes: string[]; enabled: boolean }
  | { kind: 'stale' };

/** The secret an authenticator app reads from the otpauth:// URI, in groups of four as apps accept it typed. */
const secretOf = (uri: string) => (new URL(uri).searchParams.get('secret') ?? '').replace(/(.{4})(?=.)/g, '$1 ');

/**
 * The account security page (`security`, signed in; main.tsx sends a signed-out browser to sign in and back): the
 * second factor's state and backup codes left, enrolment (password → QR code and the secret as text → first code →
 * backup codes shown once), new backup codes and turning it off (both with the password); then the passkeys
 * (Passkeys.tsx) when config.json offers them. This page and the QR code library are a chunk of their own
 * (App.tsx), so the first page stays small.
 */
export function Security() {
  const { t, config, carry, user, apiBase } = usePages();
  const [step, setStep] = useState<Step>({ kind: 'overview' });
  const heading = useRef<HTMLHeadingElement>(null);
  const shown = useRef(step);

  // Each new step is announced by moving the focus to its heading (not on the page's first view); the password
  // step focuses its one field instead.
  useEffect(() => {
    if (shown.current === step) return;
    shown.current = step;
    if (step.kind !== 'password') heading.current?.focus();
  }, [step]);

  const where = { baseURI: document.baseURI, apiBase };
  // A fresh sign-in: sign out, sign in (password and second factor), and come back to this page.
  const self = pageTarget('security', carry, where);
  const signInAgain = pageHref('sign-out', {
    ...carry,
    callbackURL: pageTarget('sign-in', { ...carry, callbackURL: self }, where),
  });

  let body: ReactNode;
  switch (step.kind) {
    case 'overview':
      body = <Overview done={step.done} onAction={(action) => setStep({ kind: 'password', action })} />;
      break;
    case 'password':
      body = (
        <PasswordStep
          action={step.action}
          onCancel={() => setStep({ kind: 'overview' })}
          onDone={setStep}
          headingRef={heading}
        />
      );
      break;
    case 'scan':
      body = (
        <ScanStep
          step={step}
          headingRef={heading}
          onCancel={() => setStep({ kind: 'overview' })}
          onDone={() => setStep({ kind: 'codes', codes: step.codes, enabled: true })}
        />
      );
      break;
    case 'codes':
      body = (
        <CodesStep
          codes={step.codes}
          enabled={step.enabled}
          headingRef={heading}
          onDone={() => setStep({ kind: 'overview' })}
        />
      );
      break;
    case 'stale':
      body = (
        <>
          <h3 ref={heading} tabIndex={-1}>
            {t('turnOffTitle')}
          </h3>
          <Notice kind="error">{t('e_SESSION_NOT_FRESH')}</Notice>
          <div className="actions">
            <a className="button primary" href={signInAgain}>
              {t('signInAgain')}
            </a>
            <button type="button" className="secondary" onClick={() => setStep({ kind: 'overview' })}>
              {t('cancel')}
            </button>
          </div>
        </>
      );
      break;
  }
  return (
    <>
      <h1>{t('securityTitle')}</h1>
      {user && <p className="hint">{t('signedInAs', { email: user.email })}</p>}
      <section className="section" aria-labelledby="two-factor-heading">
        <h2
          id="two-factor-heading"
          className="section-title"
          ref={step.kind === 'overview' ? heading : undefined}
          tabIndex={-1}
        >
          {t('twoFactorTitle')}
        </h2>
        {body}
      </section>
      {config.methods.passkey && <Passkeys signInAgain={signInAgain} />}
      <p className="aside links">
        {carry.callbackURL && <a href={carry.callbackURL}>{t('backToProduct', { product: config.productName })}</a>}
        <a href={pageHref('sign-out', carry)}>{t('signOut')}</a>
      </p>
    </>
  );
}

/** The second factor's state, what was just done, and the actions it allows. */
function Overview({ done, onAction }: { done?: 'enabled' | 'disabled'; onAction: (action: Action) => void }) {
  const { t, client } = usePages();
  const [status, setStatus] = useState<Status | null>(null);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    void call(() => client.$fetch('/two-factor/status', { method: 'GET' })).then((r) => {
      if (!live) return;
      if (r.error) setFailed(true);
      else setStatus(r.data as Status);
    });
    return () => {
      live = false;
    };
  }, [client]);
  return (
    <>
      {done && <Notice kind="info">{t(done === 'enabled' ? 'twoFactorEnabledDone' : 'twoFactorDisabledDone')}</Notice>}
      {failed && <Notice kind="error">{t('e_generic')}</Notice>}
      {!status && !failed && <p role="status">{t('loading')}</p>}
      {status && (
        <>
          <p id="two-factor-state">
            <strong>{status.enabled ? t('stateOn') : t('stateOff')}</strong>{' '}
            {status.enabled ? t('twoFactorOn') : t('twoFactorOff')}
          </p>
          {status.enabled && (
            <p id="backup-codes-left">{t('backupCodesLeft', { count: status.backupCodesRemaining })}</p>
          )}
          <div className="actions">
            {status.enabled ? (
              <>
                <button type="button" className="secondary" onClick={() => onAction('codes')}>
                  {t('newBackupCodes')}
                </button>
                <button type="button" className="secondary" onClick={() => onAction('disable')}>
                  {t('turnOff')}
                </button>
              </>
            ) : (
              <button type="button" className="primary" onClick={() => onAction('enable')}>
                {t('turnOn')}
              </button>
            )}
          </div>
        </>
      )}
    </>
  );
}

/** The password, asked before each change; its answer leads to the next step. */
function PasswordStep(props: {
  action: Action;
  onCancel: () => void;
  onDone: (next: Step) => void;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
}) {
  const { t, client } = usePages();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  useEffect(() => {
    if (error) input.current?.select();
  }, [error]);

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const password = input.current?.value ?? '';
    setBusy(true);
    setError(null);
    const next = await run(props.action, password);
    setBusy(false);
    if (typeof next === 'string') {
      setError(t(apiErrorKey(next)));
      input.current?.focus();
    } else props.onDone(next);
  };

  /** The API call of the action; a refusal's code, or the next step. */
  const run = async (action: Action, password: string): Promise<Step | string> => {
    if (action === 'enable') {
      const r = await call(() => client.twoFactor.enable({ password }));
      if (r.error) return r.error.code ?? 'UNKNOWN';
      const { totpURI, backupCodes } = r.data as { totpURI: string; backupCodes: string[] };
      const qr = await QRCode.toDataURL(totpURI, { margin: 2, width: 200, errorCorrectionLevel: 'M' });
      return { kind: 'scan', uri: totpURI, qr, codes: backupCodes };
    }
    if (action === 'codes') {
      const r = await call(() => client.twoFactor.generateBackupCodes({ password }));
      if (r.error) return r.error.code ?? 'UNKNOWN';
      return { kind: 'codes', codes: (r.data as { backupCodes: string[] }).backupCodes, enabled: false };
    }
    const r = await call(() => client.twoFactor.disable({ password }));
    if (r.error?.code === 'SESSION_NOT_FRESH') return { kind: 'stale' };
    if (r.error) return r.error.code ?? 'UNKNOWN';
    return { kind: 'overview', done: 'disabled' };
  };

  const titles = { enable: 'turnOnTitle', codes: 'newCodesTitle', disable: 'turnOffTitle' } as const;
  const intros = { enable: 'turnOnIntro', codes: 'newCodesIntro', disable: 'turnOffIntro' } as const;
  const errorId = `${id}-error`;
  return (
    <>
      <h3 ref={props.headingRef} tabIndex={-1}>
        {t(titles[props.action])}
      </h3>
      <p>{t(intros[props.action])}</p>
      <LiveRegion error={error} id={errorId} />
      <form onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={id}>{t('password')}</label>
          <input
            ref={input}
            id={id}
            name="password"
            type="password"
            autoComplete="current-password"
            required
            // biome-ignore lint/a11y/noAutofocus: the step asks one thing, the password
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? errorId : undefined}
          />
        </div>
        <div className="actions">
          <Submit busy={busy}>{t('continue')}</Submit>
          <button type="button" className="secondary" onClick={props.onCancel}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </>
  );
}

/** The QR code and the secret as text, then the first code, which turns the second factor on. */
function ScanStep(props: {
  step: Extract<Step, { kind: 'scan' }>;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onCancel: () => void;
  onDone: () => void;
}) {
  const { t, client } = usePages();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const errorId = `${id}-error`;
  useEffect(() => {
    if (!error) return;
    input.current?.focus();
    input.current?.select();
  }, [error]);

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const code = (input.current?.value ?? '').replace(/\s+/g, '');
    setBusy(true);
    setError(null);
    const r = await call(() => client.twoFactor.verifyTotp({ code }));
    setBusy(false);
    if (r.error) setError(t(apiErrorKey(r.error.code)));
    else props.onDone();
  };

  return (
    <>
      <h3 ref={props.headingRef} tabIndex={-1}>
        {t('scanTitle')}
      </h3>
      <p>{t('scanIntro')}</p>
      <img className="qr" src={props.step.qr} alt={t('qrAlt')} width={200} height={200} />
      <p>{t('secretIntro')}</p>
      <p>
        <code className="secret" id="totp-secret">
          {secretOf(props.step.uri)}
        </code>
      </p>
      <LiveRegion error={error} id={errorId} />
      <form onSubmit={onSubmit}>
        <CodeField inputRef={input} backup={false} label={t('totpCode')} hint={null} errorId={error ? errorId : null} />
        <div className="actions">
          <Submit busy={busy}>{t('verifyButton')}</Submit>
          <button type="button" className="secondary" onClick={props.onCancel}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </>
  );
}

/** The backup codes, shown once: copy, download as .txt, and a word that they are saved. */
function CodesStep(props: {
  codes: string[];
  enabled: boolean;
  headingRef: React.RefObject<HTMLHeadingElement | null>;
  onDone: () => void;
}) {
  const { t, config, user } = usePages();
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const text = useMemo(
    () =>
      [t('codesFileTitle', { product: config.productName, email: user?.email ?? '' }), '', ...props.codes, ''].join(
        '\r\n',
      ),
    [t, config.productName, user, props.codes],
  );
  const [href, setHref] = useState<string | null>(null);
  useEffect(() => {
    const url = URL.createObjectURL(new Blob([text], { type: 'text/plain;charset=utf-8' }));
    setHref(url);
    return () => URL.revokeObjectURL(url);
  }, [text]);
  const copy = useCallback(() => {
    navigator.clipboard.writeText(props.codes.join('\n')).then(
      () => setCopied('yes'),
      () => setCopied('no'),
    );
  }, [props.codes]);
  const fileName = `${config.productName.replace(/[^\p{L}\p{N}]+/gu, '-').toLowerCase()}-backup-codes.txt`;
  return (
    <>
      {props.enabled && <Notice kind="info">{t('twoFactorEnabledDone')}</Notice>}
      <h3 ref={props.headingRef} tabIndex={-1}>
        {t('codesTitle')}
      </h3>
      <p>{t('codesIntro')}</p>
      <ul className="codes" id="backup-codes" aria-label={t('codesTitle')}>
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <button type="button" className="secondary" onClick={copy}>
          {t('copyCodes')}
        </button>
        {href && (
          <a className="button secondary" href={href} download={fileName}>
            {t('downloadCodes')}
          </a>
        )}
      </div>
      <div className="live" role="status">
        {copied && <p className="notice notice-info">{t(copied === 'yes' ? 'copied' : 'copyFailed')}</p>}
      </div>
      <button type="button" className="primary" onClick={props.onDone}>
        {t('codesSaved')}
      </button>
    </>
  );
}
