import { Chip } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import { endpointState, type WebhookEndpoint } from './webhookForm';

/** Enabled, failing since when, disabled, or disabled by the service after failing for days. */
export function EndpointState({ endpoint }: { endpoint?: WebhookEndpoint }) {
  const fromContext = useRecordContext<WebhookEndpoint>();
  const record = endpoint ?? fromContext;
  const translate = useTranslate();
  if (!record) return null;
  const state = endpointState(record);
  const date = record.failingSince ? new Date(record.failingSince).toLocaleString() : '';
  const color = state === 'enabled' ? 'success' : state === 'disabled' ? 'default' : 'error';
  return (
    <Chip
      size="small"
      variant="outlined"
      color={color}
      label={translate(`resources.webhooks.state.${state}`, { date })}
      data-testid="webhook-state"
      data-state={state}
      sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
    />
  );
}
