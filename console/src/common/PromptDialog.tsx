import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  MenuItem,
  TextField,
} from '@mui/material';
import { type FormEvent, type KeyboardEvent, type ReactNode, useId, useRef, useState } from 'react';
import { useNotify, useTranslate } from 'react-admin';

/** One input of a prompt: a text field, or a choice when `options` is given. */
export interface PromptField {
  name: string;
  /** Already translated. */
  label: string;
  type?: 'text' | 'email' | 'password' | 'number';
  helperText?: string;
  /** Confirm stays disabled while this field is empty. */
  required?: boolean;
  options?: { value: string; label: string }[];
  autoComplete?: string;
  min?: number;
  testId?: string;
}

/** What the fields hold, by name (text as typed). */
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
  /** The notification saying what happened, already translated. */
  success: (values: PromptValues) => string;
  /** Runs after success (refresh the page's data, leave the page, reload). */
  after?: () => void;
}

/**
 * The one dialog behind every console action: a confirmation naming its target, with optional fields.
 * Each opening starts from `initial` (what was typed before Cancel is gone); Enter confirms; Confirm is the
 * form's submit button, disabled while busy or while a required field is empty.
 */
export function PromptDialog(props: PromptDialogProps) {
  const { open, onClose, title, message, fields = [], initial, color = 'primary', onConfirm, success, after } = props;
  const translate = useTranslate();
  const notify = useNotify();
  const titleId = useId();
  const form = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<PromptValues>({});
  const [busy, setBusy] = useState(false);
  // Reset while rendering the opening (React's pattern for state derived from a prop change): the fields never
  // show, even for one frame, what an earlier opening held.
  const [wasOpen, setWasOpen] = useState(false);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) setValues(startValues(fields, initial));
  }

  const missing = fields.some((f) => f.required && !values[f.name]?.trim());

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy || missing) return;
    setBusy(true);
    try {
      await onConfirm(values);
      onClose();
      notify(success(values), { type: 'success' });
      after?.();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
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

  return (
    <Dialog
      open={open}
      onClose={() => !busy && onClose()}
      onKeyDown={onKeyDown}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="xs"
    >
      <form ref={form} onSubmit={submit} noValidate>
        <DialogTitle id={titleId}>{title}</DialogTitle>
        <DialogContent>
          {message && <DialogContentText>{message}</DialogContentText>}
          {fields.map((field, index) => (
            <TextField
              key={field.name}
              autoFocus={index === 0}
              fullWidth
              margin="dense"
              select={!!field.options}
              type={field.options ? undefined : (field.type ?? 'text')}
              label={field.label}
              helperText={field.helperText}
              required={field.required}
              autoComplete={field.autoComplete ?? 'off'}
              value={values[field.name] ?? ''}
              onChange={(e) => setValues((v) => ({ ...v, [field.name]: e.target.value }))}
              slotProps={
                field.options
                  ? { select: { SelectDisplayProps: { 'data-testid': field.testId } as object } }
                  : { htmlInput: { 'data-testid': field.testId, min: field.min } }
              }
            >
              {field.options?.map((o) => (
                <MenuItem key={o.value} value={o.value}>
                  {o.label}
                </MenuItem>
              ))}
            </TextField>
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

function startValues(fields: PromptField[], initial: PromptValues | undefined): PromptValues {
  return Object.fromEntries(fields.map((f) => [f.name, initial?.[f.name] ?? '']));
}
