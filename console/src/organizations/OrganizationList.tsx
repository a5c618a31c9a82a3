import { DataTable, DateField, List, NumberField } from 'react-admin';

/** admin/list-organizations: every organization with its member count. */
export function OrganizationList() {
  return (
    <List perPage={25} sort={{ field: 'createdAt', order: 'DESC' }}>
      <DataTable rowClick="show" bulkActionButtons={false}>
        <DataTable.Col source="name" disableSort />
        <DataTable.Col source="slug" disableSort />
        <DataTable.Col source="memberCount" field={NumberField} disableSort />
        <DataTable.Col source="createdAt" field={DateField} disableSort />
      </DataTable>
    </List>
  );
}
