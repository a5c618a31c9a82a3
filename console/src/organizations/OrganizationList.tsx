import { DataTable, DateField, List, NumberField, SimpleList, useTranslate } from 'react-admin';
import { useNarrow } from '../layout/useNarrow';
import type { OrganizationSummary } from '../providers/dataProvider';

/** admin/list-organizations: every organization with its member count; one column in a narrow window. */
export function OrganizationList() {
  const narrow = useNarrow();
  const translate = useTranslate();
  return (
    <List perPage={25} sort={{ field: 'createdAt', order: 'DESC' }}>
      {narrow ? (
        <SimpleList<OrganizationSummary>
          primaryText={(o) => o.name}
          secondaryText={(o) => o.slug}
          tertiaryText={(o) => translate('resources.organizations.member_count', { smart_count: o.memberCount })}
          linkType="show"
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false}>
          <DataTable.Col source="name" disableSort />
          <DataTable.Col source="slug" disableSort />
          <DataTable.Col source="memberCount" field={NumberField} disableSort />
          <DataTable.Col source="createdAt" field={DateField} disableSort />
        </DataTable>
      )}
    </List>
  );
}
