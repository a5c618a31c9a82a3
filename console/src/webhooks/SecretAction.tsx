import { Button } from '@mui/material';
import { type ReactNode, useRef, useState } from 'react';
import { useTranslate } from 'react-admin';
import { PromptDialog, type PromptDialogProps, type PromptValues } from '../common/PromptDialog';
import { usePageRefresh } from '../common/usePageRefresh';
import { SecretDialog, type SecretDialogProps, type ShownSecret } from './SecretDialog';

export interface SecretActionProps extends Omit<PromptDialogProps, 'open' | 'onClose' | 'onConfirm' | 'after'> {
  /** i18n key of the button's label. */
  label: string;
  icon?: ReactNode;
  /** The API call; answers the secret to show once. */
  onConfirm: (values: PromptValues) => Promise<ShownSecret & { id: string }>;
  /** Runs when the secret's dialog closes (the secret is forgotten then), with the endpoint's id. */
  onDone?: (id: string) => void;
  /** The secret dialog's texts and test id (a webhook signing secret's by default). */
  secretTexts?: SecretDialogProps['texts'];
  secretTestId?: SecretDialogProps['testId'];
}

/**
 * A button whose dialog (create, rotate) answers a signing secret: once the dialog has closed, the secret shows in
 * its own dialog, once. It is held only until that dialog closes.
 */
export function SecretAction(props: SecretActionProps) {
  const { label, icon, onConfirm, onDone, secretTexts, secretTestId, ...dialog } = props;
  const translate = useTranslate();
  const refresh = usePageRefresh();
  const [open, setOpen] = useState(false);
  const [shown, setShown] = useState<(ShownSecret & { id: string }) | null>(null);
  const answered = useRef<(ShownSecret & { id: string }) | null>(null);
  return (
    <>
      <Button
        size="small"
        color={dialog.color}
        startIcon={icon}
        onClick={() => {
          answered.current = null;
          setOpen(true);
        }}
      >
        {translate(label)}
      </Button>
      <PromptDialog
        {...dialog}
        errorsInForm
        open={open}
        onConfirm={async (values) => {
          answered.current = await onConfirm(values);
        }}
        after={refresh}
        onClose={() => {
          setOpen(false);
          setShown(answered.current);
          answered.current = null;
        }}
      />
      <SecretDialog
        texts={secretTexts}
        testId={secretTestId}
        shown={shown}
        onClose={() => {
          const id = shown?.id;
          setShown(null);
          if (id) onDone?.(id);
        }}
      />
    </>
  );
}
