import { type ReactNode, useId, useState } from 'react';
import { usePages } from './context';
import { apiErrorKey } from './i18n';

export function Field(props: {
  label: string;
  name: string;
  type?: string;
  autoComplete: string;
  hint?: string;
  minLength?: number;
  maxLength?: number;
  autoFocus?: boolean;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  return (
    <div className="field">
      <label htmlFor={id}>{props.label}</label>
      <input
        id={id}
        name={props.name}
        type={props.type ?? 'text'}
        autoComplete={props.autoComplete}
        required
        minLength={props.minLength}
        maxLength={props.maxLength}
        // biome-ignore lint/a11y/noAutofocus: a page with one task starts in its first field (keyboard users type at once)
        autoFocus={props.autoFocus}
        aria-describedby={props.hint ? hintId : undefined}
      />
      {props.hint && (
        <p className="hint" id={hintId}>
          {props.hint}
        </p>
      )}
    </div>
  );
}

/** A message announced to screen readers as it appears: `alert` for errors, `status` for confirmations. */
export function Notice({ kind, children }: { kind: 'error' | 'info'; children: ReactNode }) {
  return (
    <div className={`notice notice-${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

/**
 * The announcement region is always in the page, so its first message is read out too. `id` lets a field name it
 * in its `aria-describedby`.
 */
export function LiveRegion({ error, id }: { error: string | null; id?: string }) {
  return (
    <div className="live" role="alert" id={id}>
      {error && <p className="notice notice-error">{error}</p>}
    </div>
  );
}

/**
 * A form's submit: reads the fields, runs `action`, and turns the API's refusal into the catalogue's sentence.
 * The button is disabled while the call runs.
 */
export function useSubmit(action: (fields: Record<string, string>, form: HTMLFormElement) => Promise<string | null>) {
  const { t } = usePages();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const form = event.currentTarget;
    const fields = Object.fromEntries(
      [...new FormData(form).entries()].map(([k, v]) => [k, typeof v === 'string' ? v : '']),
    );
    setBusy(true);
    setError(null);
    try {
      const code = await action(fields, form);
      if (code !== null) setError(t(apiErrorKey(code)));
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, onSubmit };
}

export function Submit({ busy, children }: { busy: boolean; children: ReactNode }) {
  const { t } = usePages();
  return (
    <button type="submit" className="primary" disabled={busy} aria-busy={busy}>
      {busy ? t('busy') : children}
    </button>
  );
}
