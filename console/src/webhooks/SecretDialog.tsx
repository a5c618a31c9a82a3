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
  url: string;
  secret: string;
  /** After a rotation: until when the previous secret still signs. */
  previousUntil?: string | null;
}

/**
 * The signing secret, the one time the API answers it (create, rotate): read-only, with a copy button and the
 * sentence that it will not be shown again. The caller forgets it when this closes; a click beside the dialog does
 * not close it (only its button or Escape), so it is not lost by accident.
 */
export function SecretDialog({ shown, onClose }: { shown: ShownSecret | null; onClose: () => void }) {
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
      notify('resources.webhooks.secret.copied', { type: 'success' });
    } catch {
      input.current?.select();
      notify('resources.webhooks.secret.copy_failed', { type: 'warning' });
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
        {translate('resources.webhooks.secret.title', { url: shown?.url ?? '' })}
      </DialogTitle>
      <DialogContent>
        <DialogContentText sx={{ fontWeight: 'bold' }}>{translate('resources.webhooks.secret.once')}</DialogContentText>
        {shown?.previousUntil && (
          <DialogContentText sx={{ mt: 1 }}>
            {translate('resources.webhooks.secret.overlap', {
              date: new Date(shown.previousUntil).toLocaleString(),
            })}
          </DialogContentText>
        )}
        <TextField
          fullWidth
          margin="normal"
          label={translate('resources.webhooks.secret.label')}
          value={shown?.secret ?? ''}
          inputRef={input}
          onFocus={(e) => e.target.select()}
          slotProps={{
            htmlInput: { readOnly: true, 'data-testid': 'webhook-secret', spellCheck: false },
            input: {
              sx: { fontFamily: 'monospace' },
              endAdornment: (
                <InputAdornment position="end">
                  <Button startIcon={<ContentCopy />} onClick={copy}>
                    {translate('resources.webhooks.secret.copy')}
                  </Button>
                </InputAdornment>
              ),
            },
          }}
        />
      </DialogContent>
      <DialogActions>
        <Button variant="contained" onClick={onClose} autoFocus ref={done}>
          {translate('resources.webhooks.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
