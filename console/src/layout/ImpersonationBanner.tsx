import { Alert, Button } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useGetIdentity, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';

/** "Impersonating X" with a Stop button, shown while the session's impersonatedBy is set. */
export function ImpersonationBanner() {
  const { identity } = useGetIdentity();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  if (!identity?.impersonatedBy) return null;

  const stop = async () => {
    setBusy(true);
    try {
      await dataProvider.stopImpersonating();
      // The admin session is back: reload so every cached query and the identity start afresh.
      window.location.hash = '#/users';
      window.location.reload();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      setBusy(false);
    }
  };

  return (
    <Alert
      severity="warning"
      role="status"
      data-testid="impersonation-banner"
      sx={{ mb: 1 }}
      action={
        <Button color="inherit" size="small" onClick={stop} disabled={busy}>
          {translate('console.impersonation.stop')}
        </Button>
      }
    >
      {translate('console.impersonation.banner', { name: identity.fullName ?? identity.email })}
    </Alert>
  );
}
