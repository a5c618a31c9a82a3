import { useCallback, useEffect, useId, useMemo, useRef, useState } from 'react';
import { call } from '../client';
import { usePages } from '../context';
import { LANGUAGE_TAGS } from '../i18n';
import { ceremonyCancelled, passkeyErrorKey, webAuthnSupported } from '../passkeys';
import { LiveRegion, Notice, Submit } from '../ui';

/** A passkey as `passkey.listUserPasskeys()` answers it (the fields this page shows). */
interface Passkey {
  id: string;
  name: string | null;
  createdAt: string | Date;
}

type Mode =
  | { kind: 'list' }
  | { kind: 'add' }
  | { kind: 'rename'; id: string }
  | { kind: 'remove'; id: string }
  | { kind: 'stale' };

/** What was just done, said in the section's status region. */
type Done = 'passkeyAddedDone' | 'passkeyRenamedDone' | 'passkeyRemovedDone';

const ADD_BUTTON = 'passkey-add';
const buttonId = (id: string, action: 'rename' | 'remove') => `passkey-${id}-${action}`;

/**
 * The account security page's passkeys (docs/two-factor.md, Passkeys), through the published client's
 * `passkey.*`: the list (name, date added), adding one (an optional name, then the browser's ceremony; a session
 * signed in within SESSION_FRESH_AGE_SEC, or the way to sign in again), renaming one and removing one (asked first).
 * Each change is announced in the section's status region and the focus goes where the next step is.
 */
export function Passkeys({ signInAgain }: { signInAgain: string }) {
  const { t, client, language } = usePages();
  const [items, setItems] = useState<Passkey[] | null>(null);
  const [failed, setFailed] = useState(false);
  const [mode, setMode] = useState<Mode>({ kind: 'list' });
  const [done, setDone] = useState<Done | null>(null);
  const [error, setError] = useState<string | null>(null);
  // The element that takes the focus once the next render is on screen (an id, or the section's heading).
  const [focus, setFocus] = useState<string | null>(null);
  const heading = useRef<HTMLHeadingElement>(null);
  const date = useMemo(() => new Intl.DateTimeFormat(LANGUAGE_TAGS[language], { dateStyle: 'long' }), [language]);
  const supported = webAuthnSupported();

  const load = useCallback(async () => {
    const r = await call(() => client.passkey.listUserPasskeys());
    setFailed(r.error !== null);
    if (!r.error) setItems(r.data as Passkey[]);
  }, [client]);
  useEffect(() => {
    void load();
  }, [load]);
  useEffect(() => {
    if (focus === null) return;
    if (focus === 'heading') heading.current?.focus();
    else document.getElementById(focus)?.focus();
    setFocus(null);
  }, [focus]);

  /** Back to the list: after a change (announced, the list read again) or a cancel (focus back where it began). */
  const back = async (after: { done?: Done; focus: string }) => {
    if (after.done) await load();
    setDone(after.done ?? null);
    setMode({ kind: 'list' });
    setFocus(after.focus);
  };
  const open = (next: Mode) => {
    setDone(null);
    setError(null);
    setMode(next);
  };

  const remove = async (id: string) => {
    const r = await call(() => client.passkey.deletePasskey({ id }));
    if (!r.error) return back({ done: 'passkeyRemovedDone', focus: 'heading' });
    // Gone already (removed in another tab): the list as it is now, and the sentence.
    await load();
    setMode({ kind: 'list' });
    setError(t(passkeyErrorKey(r.error.code)));
    setFocus('heading');
  };

  const nameOf = (item: Passkey) => item.name || t('passkeyUnnamed');
  return (
    <section className="section" aria-labelledby="passkeys-heading">
      <h2 id="passkeys-heading" className="section-title" ref={heading} tabIndex={-1}>
        {t('passkeysTitle')}
      </h2>
      <div className="live" role="status">
        {done && <p className="notice notice-info">{t(done)}</p>}
      </div>
      <LiveRegion error={error} />
      <p>{t('passkeysIntro')}</p>
      {failed && <Notice kind="error">{t('e_generic')}</Notice>}
      {!items && !failed && <p role="status">{t('loading')}</p>}
      {items?.length === 0 && <p id="passkeys-none">{t('passkeysNone')}</p>}
      {items && items.length > 0 && (
        <ul className="passkeys" aria-labelledby="passkeys-heading">
          {items.map((item) => (
            <li key={item.id} className="passkey">
              {mode.kind === 'rename' && mode.id === item.id ? (
                <RenameForm
                  item={item}
                  onCancel={() => back({ focus: buttonId(item.id, 'rename') })}
                  onDone={() => back({ done: 'passkeyRenamedDone', focus: buttonId(item.id, 'rename') })}
                />
              ) : mode.kind === 'remove' && mode.id === item.id ? (
                <RemoveConfirm
                  name={nameOf(item)}
                  onCancel={() => back({ focus: buttonId(item.id, 'remove') })}
                  onConfirm={() => remove(item.id)}
                />
              ) : (
                <PasskeyRow
                  id={item.id}
                  name={nameOf(item)}
                  added={t('passkeyCreated', { date: date.format(new Date(item.createdAt)) })}
                  onRename={() => open({ kind: 'rename', id: item.id })}
                  onRemove={() => open({ kind: 'remove', id: item.id })}
                />
              )}
            </li>
          ))}
        </ul>
      )}
      {mode.kind === 'add' && (
        <AddForm
          onCancel={() => back({ focus: ADD_BUTTON })}
          onDone={() => back({ done: 'passkeyAddedDone', focus: 'heading' })}
          onStale={() => setMode({ kind: 'stale' })}
        />
      )}
      {mode.kind === 'stale' && <Stale signInAgain={signInAgain} onCancel={() => back({ focus: ADD_BUTTON })} />}
      {mode.kind !== 'add' &&
        mode.kind !== 'stale' &&
        items &&
        (supported ? (
          <div className="actions">
            <button id={ADD_BUTTON} type="button" className="secondary" onClick={() => open({ kind: 'add' })}>
              {t('addPasskey')}
            </button>
          </div>
        ) : (
          <p className="hint">{t('passkeysUnsupported')}</p>
        ))}
    </section>
  );
}

/** One passkey: its name and the day it was added, with Rename and Remove (each described by the name). */
function PasskeyRow(props: { id: string; name: string; added: string; onRename: () => void; onRemove: () => void }) {
  const { t } = usePages();
  const nameId = `passkey-${props.id}-name`;
  return (
    <>
      <div>
        <p className="passkey-name" id={nameId}>
          {props.name}
        </p>
        <p className="hint">{props.added}</p>
      </div>
      <div className="row-actions">
        <button
          id={buttonId(props.id, 'rename')}
          type="button"
          className="secondary"
          aria-describedby={nameId}
          onClick={props.onRename}
        >
          {t('renamePasskey')}
        </button>
        <button
          id={buttonId(props.id, 'remove')}
          type="button"
          className="secondary"
          aria-describedby={nameId}
          onClick={props.onRemove}
        >
          {t('removePasskey')}
        </button>
      </div>
    </>
  );
}

/** A new name for one passkey, in its row. */
function RenameForm(props: { item: Passkey; onCancel: () => void; onDone: () => void }) {
  const { t, client } = usePages();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const errorId = `${id}-error`;
  useEffect(() => {
    input.current?.select();
  }, []);

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const name = (input.current?.value ?? '').trim();
    setBusy(true);
    setError(null);
    const r = await call(() => client.passkey.updatePasskey({ id: props.item.id, name }));
    setBusy(false);
    if (!r.error) return props.onDone();
    setError(t(passkeyErrorKey(r.error.code)));
    input.current?.focus();
  };

  return (
    <form onSubmit={onSubmit} aria-label={t('renamePasskeyTitle')}>
      <LiveRegion error={error} id={errorId} />
      <div className="field">
        <label htmlFor={id}>{t('name')}</label>
        <input
          ref={input}
          id={id}
          name="name"
          type="text"
          autoComplete="off"
          defaultValue={props.item.name ?? ''}
          required
          maxLength={100}
          // biome-ignore lint/a11y/noAutofocus: the form was opened to type the new name
          autoFocus
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? errorId : undefined}
        />
      </div>
      <div className="row-actions">
        <Submit busy={busy}>{t('save')}</Submit>
        <button type="button" className="secondary" onClick={props.onCancel}>
          {t('cancel')}
        </button>
      </div>
    </form>
  );
}

/** Removing a passkey asks first, in its row; the question takes the focus. */
function RemoveConfirm(props: { name: string; onCancel: () => void; onConfirm: () => Promise<void> }) {
  const { t } = usePages();
  const [busy, setBusy] = useState(false);
  const question = useRef<HTMLParagraphElement>(null);
  const id = useId();
  useEffect(() => {
    question.current?.focus();
  }, []);
  const confirm = async () => {
    if (busy) return;
    setBusy(true);
    await props.onConfirm();
  };
  return (
    <div>
      <p id={`${id}-question`} ref={question} tabIndex={-1} className="passkey-name" aria-describedby={`${id}-text`}>
        {t('removePasskeyQuestion', { name: props.name })}
      </p>
      <p id={`${id}-text`} className="hint">
        {t('removePasskeyText')}
      </p>
      <div className="row-actions">
        <button type="button" className="danger" onClick={confirm} aria-busy={busy}>
          {busy ? t('busy') : t('removePasskeyConfirm')}
        </button>
        <button type="button" className="secondary" onClick={props.onCancel}>
          {t('keepPasskey')}
        </button>
      </div>
    </div>
  );
}

/**
 * Adding a passkey: an optional name, then the browser's ceremony (`passkey.addPasskey`). A dismissed ceremony
 * leaves the form as it was; a session too old for it (SESSION_NOT_FRESH) leads to signing in again.
 */
function AddForm(props: { onCancel: () => void; onDone: () => void; onStale: () => void }) {
  const { t, client } = usePages();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const id = useId();
  const errorId = `${id}-error`;
  const hintId = `${id}-hint`;

  const onSubmit = async (event: React.FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (busy) return;
    const name = (input.current?.value ?? '').trim();
    setBusy(true);
    setError(null);
    const r = await call(() => client.passkey.addPasskey(name ? { name } : {}));
    setBusy(false);
    if (!r.error) return props.onDone();
    const code = r.error.code;
    if (code === 'SESSION_NOT_FRESH') return props.onStale();
    if (!ceremonyCancelled(code)) setError(t(passkeyErrorKey(code)));
    input.current?.focus();
  };

  return (
    <>
      <h3>{t('addPasskey')}</h3>
      <p>{t('addPasskeyIntro')}</p>
      <LiveRegion error={error} id={errorId} />
      <form onSubmit={onSubmit}>
        <div className="field">
          <label htmlFor={id}>{t('passkeyName')}</label>
          <input
            ref={input}
            id={id}
            name="name"
            type="text"
            autoComplete="off"
            maxLength={100}
            // biome-ignore lint/a11y/noAutofocus: the form was opened to add a passkey; its one field comes first
            autoFocus
            aria-invalid={error ? true : undefined}
            aria-describedby={[hintId, error ? errorId : null].filter(Boolean).join(' ')}
          />
          <p className="hint" id={hintId}>
            {t('passkeyNameHint')}
          </p>
        </div>
        <div className="actions">
          <Submit busy={busy}>{t('createPasskey')}</Submit>
          <button type="button" className="secondary" onClick={props.onCancel}>
            {t('cancel')}
          </button>
        </div>
      </form>
    </>
  );
}

/** Adding a passkey needs a recent sign-in: said, with the way to sign in again and come back. */
function Stale({ signInAgain, onCancel }: { signInAgain: string; onCancel: () => void }) {
  const { t } = usePages();
  const link = useRef<HTMLAnchorElement>(null);
  useEffect(() => {
    link.current?.focus();
  }, []);
  return (
    <>
      <h3>{t('addPasskey')}</h3>
      <Notice kind="error">{t('e_SESSION_NOT_FRESH')}</Notice>
      <div className="actions">
        <a ref={link} className="button primary" href={signInAgain}>
          {t('signInAgain')}
        </a>
        <button type="button" className="secondary" onClick={onCancel}>
          {t('cancel')}
        </button>
      </div>
    </>
  );
}
