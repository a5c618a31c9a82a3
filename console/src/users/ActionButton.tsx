import { Button, Dialog, DialogActions, DialogContent, DialogTitle } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useNotify, useRefresh, useTranslate } from 'react-admin';

export interface ActionButtonProps {
  /** i18n key of the button label. */
  label: string;
  /** The dialog's title, already translated. */
  title: string;
  /** The dialog's body: a confirmation text and/or inputs the caller controls. */
  children?: ReactNode;
  /** Runs on confirm; a rejection shows the error's message (the catalogue's text) and keeps the dialog open. */
  onConfirm: () => Promise<void>;
  /** i18n key notified on success. */
  success: string;
  icon?: ReactNode;
  color?: 'primary' | 'error' | 'warning';
  disabled?: boolean;
  /** Called after success instead of refreshing the page's data. */
  after?: () => void;
}

/** A small button that opens a confirmation dialog and calls one named dataProvider method (DESIGN §2). */
export function ActionButton(props: ActionButtonProps) {
  const { label, title, children, onConfirm, success, icon, color = 'primary', disabled, after } = props;
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const notify = useNotify();
  const refresh = useRefresh();
  const translate = useTranslate();

  const confirm = async () => {
    setBusy(true);
    try {
      await onConfirm();
      setOpen(false);
      notify(success, { type: 'success' });
      if (after) after();
      else refresh();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
    } finally {
      setBusy(false);
    }
  };

  return (
    <>
      <Button size="small" color={color} startIcon={icon} disabled={disabled} onClick={() => setOpen(true)}>
        {translate(label)}
      </Button>
      <Dialog open={open} onClose={() => !busy && setOpen(false)} aria-labelledby={`${label}-title`}>
        <DialogTitle id={`${label}-title`}>{title}</DialogTitle>
        <DialogContent>{children}</DialogContent>
        <DialogActions>
          <Button onClick={() => setOpen(false)} disabled={busy}>
            {translate('console.actions.cancel')}
          </Button>
          <Button onClick={confirm} color={color} variant="contained" disabled={busy}>
            {translate('console.actions.confirm')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
