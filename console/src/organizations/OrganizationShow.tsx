import { ArrayField, DataTable, DateField, Show, SimpleShowLayout, TextField } from 'react-admin';

/** get-full-organization: the organization with its members (read-only in this slice). */
export function OrganizationShow() {
  return (
    <Show>
      <SimpleShowLayout>
        <TextField source="name" />
        <TextField source="slug" />
        <DateField source="createdAt" showTime />
        <ArrayField source="members">
          <DataTable bulkActionButtons={false}>
            <DataTable.Col source="user.email" label="resources.organizations.fields.email" />
            <DataTable.Col source="user.name" label="resources.organizations.fields.name" />
            <DataTable.Col source="role" />
          </DataTable>
        </ArrayField>
      </SimpleShowLayout>
    </Show>
  );
}
