import { useEffect, useId, useRef, useState } from 'react';
import { call } from '../client';
import { usePages } from '../context';
import { apiErrorKey } from '../i18n';
import { pageHref } from '../links';
import { LiveRegion, Notice, Submit } from '../ui';

/** Answers after which this pending sign-in cannot go on: the way back is a new sign-in with the password. */
const ENDED = new Set([
  'INVALID_TWO_FACTOR_COOKIE',
  'TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE',
  'ACCOUNT_TEMPORARILY_LOCKED',
]);

/**
 * The second-factor step (docs/two-factor.md, "The sign-in"): reached when a password sign-in answered
 * `twoFactorRedirect`, or when a social provider's return carried `twoFactorRedirect=true` (main.tsx). A code from
 * the authenticator app, or a backup code, completes the pending sign-in held in the API's HttpOnly cookie; the
 * browser then goes back to the product's `callbackURL`, as a sign-in without a second factor does.
 */
export function TwoFactor() {
  const { t, config, client, carry } = usePages();
  const [backup, setBackup] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [ended, setEnded] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const errorId = `${id}-error`;
  const trustDays = config.twoFactor?.trustDeviceDays;
  const again = useRef<HTMLAnchorElement>(null);

  // A wrong code: the field gets the focus back with its text selected, to type the next one at once.
  useEffect(() => {
    if (!error) return;
    input.current?.focus();
    input.current?.select();
  }, [error]);
  // This sign-in cannot go on: the way back (announced by the notice) has the focus.
  useEffect(() => {
    if (ended) again.current?.focus();
  }, [ended]);

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = new FormData(event.currentTarget);
    const code = String(form.get('code') ?? '').replace(/\s+/g, '');
    const trustDevice = form.get('trustDevice') === 'on';
    setBusy(true);
    setError(null);
    const outcome = await call(() =>
      backup
        ? client.twoFactor.verifyBackupCode({ code, trustDevice })
        : client.twoFactor.verifyTotp({ code, trustDevice }),
    );
    if (!outcome.error) {
      // Signed in now: back to the product, or to the sign-in page, which says who is signed in.
      window.location.assign(carry.callbackURL ?? pageHref('sign-in', carry));
      return;
    }
    setBusy(false);
    const codeName = outcome.error.code ?? 'UNKNOWN';
    if (ENDED.has(codeName)) setEnded(codeName);
    else setError(t(apiErrorKey(codeName)));
  };

  const switchKind = () => {
    setBackup(!backup);
    // The field is replaced (its label and keyboard change) and takes the focus as it appears (autoFocus).
    setError(null);
  };

  if (ended)
    return (
      <>
        <h1>{t('twoFactorTitle')}</h1>
        <Notice kind="error">{t(apiErrorKey(ended))}</Notice>
        <p>
          <a ref={again} className="button primary" href={pageHref('sign-in', carry)}>
            {t('signInAgain')}
          </a>
        </p>
      </>
    );
  return (
    <>
      <h1>{t('twoFactorTitle')}</h1>
      <p>{backup ? t('backupIntro') : t('twoFactorIntro', { product: config.productName })}</p>
      <LiveRegion error={error} id={errorId} />
      <form onSubmit={onSubmit}>
        <CodeField
          inputRef={input}
          backup={backup}
          label={backup ? t('backupCode') : t('totpCode')}
          hint={backup ? t('backupCodeHint') : null}
          errorId={error ? errorId : null}
        />
        {trustDays !== 0 && (
          <div className="field">
            <div className="check">
              <input id={`${id}-trust`} name="trustDevice" type="checkbox" aria-describedby={`${id}-trust-hint`} />
              <label htmlFor={`${id}-trust`}>
                {trustDays ? t('trustDevice', { days: trustDays }) : t('trustDeviceAny')}
              </label>
            </div>
            <p className="hint" id={`${id}-trust-hint`}>
              {t('trustDeviceHint')}
            </p>
          </div>
        )}
        <Submit busy={busy}>{t('verifyButton')}</Submit>
      </form>
      <p className="aside">
        <button type="button" className="link" onClick={switchKind}>
          {backup ? t('useAppCode') : t('useBackupCode')}
        </button>
      </p>
      <p className="aside">
        <a href={pageHref('sign-in', carry)}>{t('backToSignIn')}</a>
      </p>
    </>
  );
}

/**
 * A code field: a TOTP code (numeric keyboard, the one-time-code autofill) or a backup code (letters too, no
 * autofill). A refused code names the announced message in `aria-describedby` (errorId) and is marked invalid.
 */
export function CodeField(props: {
  inputRef: React.RefObject<HTMLInputElement | null>;
  backup: boolean;
  label: string;
  hint: string | null;
  errorId: string | null;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const describedBy = [props.hint ? hintId : null, props.errorId].filter(Boolean).join(' ');
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        key={props.backup ? 'backup' : 'totp'}
        ref={props.inputRef}
        id={id}
        name="code"
        type="text"
        className="code"
        inputMode={props.backup ? 'text' : 'numeric'}
        autoComplete={props.backup ? 'off' : 'one-time-code'}
        autoCapitalize="none"
        spellCheck={false}
        required
        maxLength={32}
        // biome-ignore lint/a11y/noAutofocus: the step has one task: typing the code
        autoFocus
        aria-invalid={props.errorId ? true : undefined}
        aria-describedby={describedBy || undefined}
      />
      {props.hint && (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      )}
    </div>
  );
}
