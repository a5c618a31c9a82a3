import Check from '@mui/icons-material/Check';
import {
  Alert,
  Autocomplete,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  ListItemIcon,
  ListItemText,
  MenuItem,
  TextField,
} from '@mui/material';
import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { HttpError, useNotify, useTranslate } from 'react-admin';
import { joinPicked, splitPicked } from './pickedValues';
import { refusalMessage, refusedField } from './refusal';

/** One input of a prompt: a text field, or a choice when `options` is given. */
export interface PromptField {
  name: string;
  /** Already translated. */
  label: string;
  type?: 'text' | 'email' | 'password' | 'number' | 'datetime-local';
  helperText?: string;
  /** Confirm stays disabled while this field is empty. */
  required?: boolean;
  options?: { value: string; label: string }[];
  /** With `options`: several may be picked; the field's value is then their comma-separated list. */
  multiple?: boolean;
  autoComplete?: string;
  /** A number's or a date and time's lowest value (`datetime-local`: "YYYY-MM-DDTHH:mm"). */
  min?: number | string;
  /** Shown (and required, when `required`) only while this holds for the dialog's values; always shown without. */
  shownWhen?: (values: PromptValues) => boolean;
  /** A text field of several lines (Enter then starts a new line; the Confirm button confirms). */
  multiline?: boolean;
  /**
   * What is wrong with this value, already translated, or undefined when nothing is: shown under the field once
   * something is typed, and Confirm stays disabled meanwhile.
   */
  validate?: (value: string) => string | undefined;
  /**
   * A search picker instead of a text field: what is typed is searched with this, the answers are offered, and the
   * field's value is the picked option's value (empty until one is picked).
   */
  search?: (text: string) => Promise<{ value: string; label: string }[]>;
  testId?: string;
}

/** What the fields hold, by name (text as typed; a multiple choice as its comma-separated list). */
export type PromptValues = Record<string, string>;

export interface PromptDialogProps {
  open: boolean;
  onClose: () => void;
  /** Already translated; names the target (the user, member, team or invitation acted on). */
  title: string;
  /** A sentence above the fields saying what confirming does, already translated. */
  message?: ReactNode;
  fields?: PromptField[];
  /** The values every opening starts from: the record's current ones, else empty fields. */
  initial?: PromptValues;
  color?: 'primary' | 'error' | 'warning';
  /** Runs on confirm; a rejection shows the error's message (the catalogue's text) and keeps the dialog open. */
  onConfirm: (values: PromptValues) => Promise<unknown>;
  /**
   * The notification saying what happened, already translated; with a type when it is not a plain success (a bulk
   * action some users refused).
   */
  success: (values: PromptValues) => string | { message: string; type: 'success' | 'warning' | 'error' };
  /**
   * Runs after success, before the dialog closes (refresh the page's data, leave the page, reload). A promise is
   * awaited, so the page shows the change when the dialog goes and an opening right after starts from the new
   * values; its failure does not undo the success (the page shows its own loading error).
   */
  after?: () => unknown;
  /**
   * A refusal shows in the dialog instead of a notification: under the field the API's error names (its `details`),
   * else above the fields; the dialog stays open with what was typed, and the message goes at the next opening.
   */
  errorsInForm?: boolean;
}

/** A refusal shown in the form: the catalogue's message, the problem the API named, and the field it is about. */
interface Refusal {
  message: string;
  field?: string;
}

/**
 * The one dialog behind every console action: a confirmation naming its target, with optional fields.
 * Each opening starts from `initial` (what was typed before Cancel is gone); Enter confirms; Confirm is the
 * form's submit button, disabled while busy, while a required field is empty or while a field's value fails its
 * `validate` (whose message shows under the field). A choice is a select-only
 * combobox: Space and the arrow keys open its list, Space or Enter picks, Escape or Tab closes the list.
 */
export function PromptDialog(props: PromptDialogProps) {
  const { open, onClose, title, message, fields = [], initial, color = 'primary', onConfirm, success, after } = props;
  const { errorsInForm } = props;
  const translate = useTranslate();
  const notify = useNotify();
  const titleId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<PromptValues>({});
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  // Reset while rendering the opening (React's pattern for state derived from a prop change): the fields never
  // show, even for one frame, what an earlier opening held.
  const [wasOpen, setWasOpen] = useState(false);
  // Each opening mounts the fields afresh, so a field's own state (a search picker's typed text) starts over too.
  const [opening, setOpening] = useState(0);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setValues(startValues(fields, initial));
      setRefusal(null);
      setOpening((n) => n + 1);
    }
  }

  // Confirm waits for every required field shown and for every shown field's value to pass its check.
  const shown = fields.filter((f) => !f.shownWhen || f.shownWhen(values));
  const missing = shown.some(
    (f) => (f.required && !values[f.name]?.trim()) || f.validate?.(values[f.name] ?? '') !== undefined,
  );

  // Each opening puts the focus on the first field. The field's autoFocus does it when the dialog mounts; a dialog
  // opened again while its closing still fades out is not mounted again, and its focus trap would hold the focus on
  // the dialog itself (this effect runs after the trap's: children's effects run first).
  useEffect(() => {
    if (!open) return;
    const first = form.current?.querySelector<HTMLElement>(FIELD);
    if (first && !first.contains(document.activeElement)) first.focus();
  }, [open]);
  // Once the dialog has come in, the focus is still put there if it rests on the dialog itself or on nothing (opened
  // with Enter on its button, the focus trap may take it after the field had it); anywhere else (a field, a choice's
  // open list) it stays.
  const onEntered = () => {
    const first = form.current?.querySelector<HTMLElement>(FIELD);
    const active = document.activeElement;
    if (first && (!active || active === document.body || active === form.current?.closest('[role="dialog"]')))
      first.focus();
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || missing) return;
    setBusy(true);
    setRefusal(null);
    try {
      await onConfirm(values);
      const said = success(values);
      if (typeof said === 'string') notify(said, { type: 'success' });
      else notify(said.message, { type: said.type });
      await Promise.resolve(after?.()).catch(() => undefined);
      onClose();
    } catch (error) {
      if (!errorsInForm) notify((error as Error).message, { type: 'error' });
      else {
        const body = error instanceof HttpError ? error.body : undefined;
        const { field, problem } = refusedField(
          body,
          shown.map((f) => f.name),
        );
        setRefusal({ message: refusalMessage((error as Error).message, problem), field });
        // The field at fault takes the focus, so its message (its description) is read out.
        if (field) setTimeout(() => form.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus());
      }
    } finally {
      setBusy(false);
    }
  };

  // Enter confirms from anywhere in the dialog. Text fields submit the form themselves; buttons and choices keep
  // Enter for their own action; a choice's open menu lives outside the dialog's element.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.defaultPrevented || event.nativeEvent.isComposing) return;
    const target = event.target as HTMLElement;
    if (!event.currentTarget.contains(target)) return;
    if (target.closest('input, textarea, button, a, [role="combobox"], [role="button"], [role="option"]')) return;
    event.preventDefault();
    form.current?.requestSubmit();
  };

  // Enter on a closed choice confirms too, once the dialog can be confirmed (until then it opens the list, as the
  // choice itself would): caught before the choice sees it.
  const onKeyDownCapture = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key !== 'Enter' || event.nativeEvent.isComposing || busy || missing) return;
    const target = event.target as HTMLElement;
    if (!event.currentTarget.contains(target)) return; // an open list lives outside the dialog's element
    if (!target.matches('[role="combobox"]:not(input)') || target.getAttribute('aria-expanded') === 'true') return;
    event.preventDefault();
    event.stopPropagation();
    form.current?.requestSubmit();
  };

  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      onKeyDown={onKeyDown}
      onKeyDownCapture={onKeyDownCapture}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
      slotProps={{ transition: { onEntered } }}
    >
      <form ref={form} onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {message && (
            // A message with a list of names is a block, not a paragraph.
            <DialogContentText component={typeof message === 'string' ? 'p' : 'div'}>{message}</DialogContentText>
          )}
          {refusal && !refusal.field && (
            <Alert severity="error" role="alert" sx={{ mt: 1 }} data-testid="prompt-refusal">
              {refusal.message}
            </Alert>
          )}
          {shown.map((field, index) => (
            <PromptInput
              key={`${field.name}-${opening}`}
              field={field}
              autoFocus={index === 0}
              value={values[field.name] ?? ''}
              refused={refusal?.field === field.name ? refusal.message : undefined}
              onChange={(value) => setValues((v) => ({ ...v, [field.name]: value }))}
            />
          ))}
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose} disabled={busy}>
            {translate('console.actions.cancel')}
          </Button>
          <Button type="submit" color={color} variant="contained" disabled={busy || missing}>
            {translate('console.actions.confirm')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}

/** A field's focusable element: a text input, or a choice's combobox (its own input is hidden). */
const FIELD = 'input:not([aria-hidden="true"]):not([type="hidden"]), textarea, [role="combobox"]';

/** One field: a text input, a choice, or (multiple) a choice of several shown as their list. */
function PromptInput(props: {
  field: PromptField;
  autoFocus: boolean;
  value: string;
  /** The API's refusal of this field (its message), shown under it until the next opening. */
  refused?: string;
  onChange: (value: string) => void;
}) {
  const { field, autoFocus, value, refused, onChange } = props;
  if (field.search) return <SearchPicker {...props} search={field.search} />;
  const options = field.options;
  const multiple = !!options && !!field.multiple;
  const picked = multiple ? splitPicked(value) : [];
  // A problem shows once something is typed: an empty field is only "required", which Confirm already says.
  const problem = (value.trim() ? field.validate?.(value) : undefined) ?? refused;
  return (
    <TextField
      autoFocus={autoFocus}
      name={field.name}
      fullWidth
      margin="dense"
      select={!!options}
      multiline={!options && field.multiline}
      minRows={field.multiline ? 3 : undefined}
      type={options ? undefined : (field.type ?? 'text')}
      label={field.label}
      error={!!problem}
      helperText={problem ?? field.helperText}
      required={field.required}
      autoComplete={field.autoComplete ?? 'off'}
      value={multiple ? picked : value}
      onChange={(e) => {
        const next: unknown = e.target.value;
        onChange(Array.isArray(next) ? joinPicked(next, options ?? []) : String(next));
      }}
      slotProps={
        options
          ? {
              select: {
                multiple,
                renderValue: multiple ? (selected) => (selected as string[]).join(', ') : undefined,
                SelectDisplayProps: { 'data-testid': field.testId } as object,
              },
            }
          : {
              htmlInput: { 'data-testid': field.testId, min: field.min },
              // A date and time field shows its own placeholder: the label stays above it.
              ...(field.type === 'datetime-local' ? { inputLabel: { shrink: true } } : {}),
            }
      }
    >
      {options?.map((o) =>
        multiple ? (
          <MenuItem key={o.value} value={o.value}>
            {/* The tick shows what is picked; the option's aria-selected says it to assistive technology. */}
            <ListItemIcon>{picked.includes(o.value) && <Check fontSize="small" />}</ListItemIcon>
            <ListItemText primary={o.label} />
          </MenuItem>
        ) : (
          <MenuItem key={o.value} value={o.value}>
            {o.label}
          </MenuItem>
        ),
      )}
    </TextField>
  );
}

/** How long typing must pause before a search picker asks (one request per pause, not per key). */
const SEARCH_PAUSE_MS = 250;

type Option = { value: string; label: string };

/**
 * A field that searches as the operator types (a user by email) and offers the answers; picking one sets the
 * field's value to that option's value. Mounted afresh at each opening (its typed text starts empty).
 */
function SearchPicker(props: {
  field: PromptField;
  autoFocus: boolean;
  value: string;
  onChange: (value: string) => void;
  search: (text: string) => Promise<Option[]>;
}) {
  const { field, autoFocus, value, onChange, search } = props;
  const translate = useTranslate();
  const [text, setText] = useState('');
  const [options, setOptions] = useState<Option[]>([]);
  const [picked, setPicked] = useState<Option | null>(null);
  const [loading, setLoading] = useState(false);
  // The latest search function, without asking again each time the caller renders a new one.
  const searchRef = useRef(search);
  searchRef.current = search;

  useEffect(() => {
    const wanted = text.trim();
    if (!wanted || wanted === picked?.label) {
      setLoading(false);
      return;
    }
    let current = true;
    setLoading(true);
    const timer = setTimeout(() => {
      searchRef
        .current(wanted)
        .then((found) => current && setOptions(found))
        .catch(() => current && setOptions([]))
        .finally(() => current && setLoading(false));
    }, SEARCH_PAUSE_MS);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [text, picked]);

  return (
    <Autocomplete<Option>
      fullWidth
      options={picked && !options.some((o) => o.value === picked.value) ? [picked, ...options] : options}
      // The API has searched already: every answer is offered as it came.
      filterOptions={(all) => all}
      getOptionLabel={(o) => o.label}
      isOptionEqualToValue={(o, v) => o.value === v.value}
      value={value ? picked : null}
      onChange={(_event, option) => {
        setPicked(option);
        onChange(option?.value ?? '');
      }}
      inputValue={text}
      onInputChange={(_event, next) => setText(next)}
      loading={loading}
      loadingText={translate('ra.page.loading')}
      noOptionsText={translate(text.trim() ? 'console.search.none' : 'console.search.type')}
      renderInput={(params) => (
        <TextField
          {...params}
          autoFocus={autoFocus}
          margin="dense"
          label={field.label}
          helperText={field.helperText}
          required={field.required}
          slotProps={{
            ...params.slotProps,
            htmlInput: { ...params.slotProps.htmlInput, 'data-testid': field.testId } as object,
          }}
        />
      )}
    />
  );
}

function startValues(fields: PromptField[], initial: PromptValues | undefined): PromptValues {
  return Object.fromEntries(fields.map((f) => [f.name, initial?.[f.name] ?? '']));
}
