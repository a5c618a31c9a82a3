import { Box } from '@mui/material';
import { DateField, FunctionField, Show, SimpleShowLayout, TextField, TopToolbar } from 'react-admin';
import { DeliveryLog } from './DeliveryLog';
import { EndpointState } from './EndpointState';
import { DeleteWebhookButton, EditWebhookButton, RotateSecretButton, ToggleWebhookButton } from './WebhookButtons';
import { eventTypesText, type WebhookEndpoint } from './webhookForm';

/** The endpoint's own actions; they wrap onto more rows in a narrow window. */
function Actions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <EditWebhookButton />
      <ToggleWebhookButton />
      <RotateSecretButton />
      <DeleteWebhookButton />
    </TopToolbar>
  );
}

/**
 * One endpoint (never its secret: the API answers it only to create and rotate): URL, event types, state,
 * description, and its delivery log with the test and redeliver actions.
 */
export function WebhookShow() {
  return (
    <Show actions={<Actions />}>
      <SimpleShowLayout>
        <TextField source="url" sx={{ wordBreak: 'break-all' }} />
        <FunctionField<WebhookEndpoint> source="eventTypes" render={(e) => eventTypesText(e.eventTypes)} />
        <FunctionField<WebhookEndpoint>
          source="enabled"
          label="resources.webhooks.fields.state"
          render={() => <EndpointState />}
        />
        <TextField source="description" emptyText="-" />
        <TextField source="id" />
        <DateField source="createdAt" showTime />
        <DateField source="updatedAt" showTime />
        <DateField source="previousSecretExpiresAt" showTime emptyText="-" />
      </SimpleShowLayout>
      <Box sx={{ px: 2, pb: 2 }}>
        <DeliveryLog />
      </Box>
    </Show>
  );
}
