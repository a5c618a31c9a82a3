import ContentCopy from '@mui/icons-material/ContentCopy';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogContentText,
  DialogTitle,
  InputAdornment,
  TextField,
} from '@mui/material';
import { useId, useRef } from 'react';
import { useNotify, useTranslate } from 'react-admin';

export interface ShownSecret {
  /** What the secret belongs to, named in the title (the endpoint's URL, the application's name). */
  url: string;
  secret: string;
  /** After a rotation: until when the previous secret still signs. */
  previousUntil?: string | null;
}

export interface SecretDialogProps {
  shown: ShownSecret | null;
  onClose: () => void;
  /** Where its texts are (`title`, `once`, `overlap`, `label`, `copy`, `copied`, `copy_failed`, `done`). */
  texts?: string;
  /** The secret's field, for tests. */
  testId?: string;
}

/**
 * A secret, the one time the API answers it (create, rotate): read-only, with a copy button and the sentence that
 * it will not be shown again. The caller forgets it when this closes; a click beside the dialog does not close it
 * (only its button or Escape), so it is not lost by accident. A webhook endpoint's signing secret by default; an
 * application's client secret with its own texts.
 */
export function SecretDialog(props: SecretDialogProps) {
  const { shown, onClose, texts = 'resources.webhooks.secret', testId = 'webhook-secret' } = props;
  const translate = useTranslate();
  const notify = useNotify();
  const titleId = useId();
  const input = useRef<HTMLInputElement>(null);
  const done = useRef<HTMLButtonElement>(null);
  // The focus goes to "I have stored it" (its autoFocus; again once the dialog has come in, if the focus trap took
  // it for the dialog itself), so Enter closes it and Shift+Tab reaches Copy.
  const onEntered = () => {
    const paper = done.current?.closest('[role="dialog"]');
    const active = document.activeElement;
    if (!active || active === document.body || active === paper) done.current?.focus();
  };
  const copy = async () => {
    if (!shown) return;
    try {
      await navigator.clipboard.writeText(shown.secret);
      notify(`${texts}.copied`, { type: 'success' });
    } catch {
      input.current?.select();
      notify(`${texts}.copy_failed`, { type: 'warning' });
    }
  };
  return (
    <Dialog
      open={!!shown}
      onClose={(_event, reason) => reason !== 'backdropClick' && onClose()}
      aria-labelledby={titleId}
      fullWidth
      maxWidth="sm"
      slotProps={{ transition: { onEntered } }}
    >
      <DialogTitle id={titleId} sx={{ wordBreak: 'break-all' }}>
        {translate(`${texts}.title`, { url: shown?.url ?? '' })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ fontWeight: 'bold' }}>{translate(`${texts}.once`)}</DialogContentText>
        {shown?.previousUntil && (
          <DialogContentText sx={{ mt: 1 }}>
            {translate(`${texts}.overlap`, {
              date: new Date(shown.previousUntil).toLocaleString(),
            })}
          </DialogContentText>
        )}
        <TextField
          fullWidth
          margin="normal"
          label={translate(`${texts}.label`)}
          value={shown?.secret ?? ''}
          inputRef={input}
          onFocus={(e) => e.target.select()}
          slotProps={{
            htmlInput: { readOnly: true, 'data-testid': testId, spellCheck: false },
            input: {
              sx: { fontFamily: 'monospace' },
              endAdornment: (
                <InputAdornment position="end">
                  <Button startIcon={<ContentCopy />} onClick={copy}>
                    {translate(`${texts}.copy`)}
                  </Button>
                </InputAdornment>
              ),
            },
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} autoFocus ref={done}>
          {translate(`${texts}.done`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
