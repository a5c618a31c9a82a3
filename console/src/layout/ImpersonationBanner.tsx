import { Alert, Box, Button, Link } from '@mui/material';
import { useState } from 'react';
import { useDataProvider, useGetIdentity, useNotify, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { productUrl } from './productUrl';

/**
 * Shown while the session impersonates someone: whom (name and email) and until when (the impersonation session's
 * expiry), a link to the product when the console knows its address, and Stop, which brings back the admin's own
 * session on the impersonated user's page.
 */
export function ImpersonationBanner() {
  const { identity } = useGetIdentity();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const notify = useNotify();
  const translate = useTranslate();
  const [busy, setBusy] = useState(false);
  if (!identity?.impersonatedBy) return null;
  const product = productUrl();
  const until = identity.sessionExpiresAt
    ? new Date(identity.sessionExpiresAt).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })
    : null;

  const stop = async () => {
    setBusy(true);
    try {
      await dataProvider.stopImpersonating();
      // The admin session is back: reload on the user's page so every cached query and the identity start afresh.
      window.location.hash = `#/users/${encodeURIComponent(String(identity.id))}/show`;
      window.location.reload();
    } catch (error) {
      notify((error as Error).message, { type: 'error' });
      setBusy(false);
    }
  };

  const who = { name: identity.fullName ?? identity.email, email: identity.email ?? '' };
  return (
    <Alert
      severity="warning"
      role="status"
      data-testid="impersonation-banner"
      sx={{ mb: 1, '& .MuiAlert-action': { flexWrap: 'wrap', alignItems: 'center', gap: 1 } }}
      action={
        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 1, alignItems: 'center' }}>
          {product && (
            <Link href={product} target="_blank" rel="noopener noreferrer" color="inherit" underline="always">
              {translate('console.impersonation.open_product')}
            </Link>
          )}
          <Button color="inherit" size="small" onClick={stop} disabled={busy}>
            {translate('console.impersonation.stop')}
          </Button>
        </Box>
      }
    >
      {translate(until ? 'console.impersonation.banner_until' : 'console.impersonation.banner', { ...who, until })}
    </Alert>
  );
}
