import { Alert } from '@mui/material';
import {
  ArrayField,
  DataTable,
  DateField,
  Labeled,
  NumberField,
  Show,
  SimpleShowLayout,
  TextField,
  useRecordContext,
  useTranslate,
} from 'react-admin';

/** Members, when the API lets the admin read them (get-full-organization: members only); else why not. */
function Members() {
  const record = useRecordContext<{ members?: unknown[] | null }>();
  const translate = useTranslate();
  if (!record) return null;
  if (!record.members)
    return (
      <>
        <Labeled source="memberCount">
          <NumberField source="memberCount" />
        </Labeled>
        <Alert severity="info">{translate('resources.organizations.not_member')}</Alert>
      </>
    );
  return (
    <ArrayField source="members">
      <DataTable bulkActionButtons={false} data-testid="members">
        <DataTable.Col source="user.email" label="resources.organizations.fields.email" />
        <DataTable.Col source="user.name" label="resources.organizations.fields.name" />
        <DataTable.Col source="role" />
      </DataTable>
    </ArrayField>
  );
}

/** An organization: name, slug, creation, member count when known, and its members (read-only in this slice). */
export function OrganizationShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="slug" />
        <DateField source="createdAt" showTime />
        <Members />
      </SimpleShowLayout>
    </Show>
  );
}
