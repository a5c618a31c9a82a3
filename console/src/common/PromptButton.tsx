import { Button } from '@mui/material';
import { type ReactNode, useState } from 'react';
import { useTranslate } from 'react-admin';
import { PromptDialog, type PromptDialogProps } from './PromptDialog';
import { usePageRefresh } from './usePageRefresh';

export interface PromptButtonProps extends Omit<PromptDialogProps, 'open' | 'onClose' | 'after'> {
  /** i18n key of the button's label. */
  label: string;
  icon?: ReactNode;
  disabled?: boolean;
  /** Runs after success instead of refreshing the page's data. */
  after?: PromptDialogProps['after'];
}

/**
 * A small button opening a PromptDialog (confirmation, optional fields) that calls one named dataProvider
 * method; on success the page's data is refreshed unless `after` says otherwise.
 */
export function PromptButton({ label, icon, disabled, after, ...dialog }: PromptButtonProps) {
  const [open, setOpen] = useState(false);
  const refresh = usePageRefresh();
  const translate = useTranslate();
  return (
    <>
      <Button size="small" color={dialog.color} startIcon={icon} disabled={disabled} onClick={() => setOpen(true)}>
        {translate(label)}
      </Button>
      <PromptDialog {...dialog} open={open} onClose={() => setOpen(false)} after={after ?? refresh} />
    </>
  );
}
