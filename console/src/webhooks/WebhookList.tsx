import { Box, Typography } from '@mui/material';
import { DataTable, FunctionField, List, SimpleList, TopToolbar, useTranslate } from 'react-admin';
import { useNarrow } from '../layout/useNarrow';
import { EndpointState } from './EndpointState';
import { CreateWebhookButton } from './WebhookButtons';
import { eventTypesText, type WebhookEndpoint } from './webhookForm';

function ListActions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <CreateWebhookButton />
    </TopToolbar>
  );
}

/**
 * No endpoint yet: what webhooks are. The create button stays in the toolbar (a button here would be unmounted by
 * the list's refresh after the create, and its secret dialog with it).
 */
function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2 }} data-testid="webhooks-empty">
      <Typography variant="h6" component="p">
        {translate('resources.webhooks.empty')}
      </Typography>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {translate('resources.webhooks.intro')}
      </Typography>
    </Box>
  );
}

/**
 * admin/list-webhook-endpoints: every endpoint, oldest first (the API answers them all, no pages): URL, the event
 * types it wants, its state and description. One column in a narrow window.
 */
export function WebhookList() {
  const narrow = useNarrow();
  const translate = useTranslate();
  return (
    <List actions={<ListActions />} pagination={false} empty={false} perPage={1000}>
      {narrow ? (
        <SimpleList<WebhookEndpoint>
          primaryText={(e) => <span style={{ wordBreak: 'break-all' }}>{e.url}</span>}
          secondaryText={(e) => eventTypesText(e.eventTypes)}
          tertiaryText={(e) => <EndpointState endpoint={e} />}
          linkType="show"
          empty={<Empty />}
          // The state keeps its colours (react-admin fades the third text, which would dim the chip's contrast).
          sx={{ '& .RaSimpleList-tertiary': { opacity: 1 } }}
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false} empty={<Empty />}>
          <DataTable.Col source="url" disableSort cellSx={() => ({ wordBreak: 'break-all' })} />
          <DataTable.Col source="eventTypes" disableSort>
            <FunctionField<WebhookEndpoint> render={(e) => eventTypesText(e.eventTypes)} />
          </DataTable.Col>
          <DataTable.Col source="enabled" label={translate('resources.webhooks.fields.state')} disableSort>
            <EndpointState />
          </DataTable.Col>
          <DataTable.Col source="description" disableSort />
        </DataTable>
      )}
    </List>
  );
}
