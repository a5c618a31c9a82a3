import {
  CreateButton,
  DataTable,
  DateField,
  List,
  NumberField,
  SearchInput,
  SimpleList,
  SortButton,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { useNarrow } from '../layout/useNarrow';
import type { OrganizationSummary } from '../providers/dataProvider';

/** In a narrow window the columns are gone, so a button offers the same sorts. */
function ListActions({ narrow }: { narrow: boolean }) {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      {narrow && <SortButton fields={['name', 'createdAt', 'memberCount']} />}
      <CreateButton />
    </TopToolbar>
  );
}

/**
 * admin/list-organizations: every organization with its member count. The search box matches part of the name or
 * slug (the API's searchValue); the Name, Members and Created columns sort through its sortBy and sortDirection.
 * One column in a narrow window, with a sort button instead of the headers.
 */
export function OrganizationList() {
  const narrow = useNarrow();
  const translate = useTranslate();
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.organizations.fields.q')} />,
  ];
  return (
    <List
      perPage={25}
      sort={{ field: 'createdAt', order: 'DESC' }}
      filters={filters}
      actions={<ListActions narrow={narrow} />}
    >
      {narrow ? (
        <SimpleList<OrganizationSummary>
          primaryText={(o) => o.name}
          secondaryText={(o) => o.slug}
          tertiaryText={(o) => translate('resources.organizations.member_count', { smart_count: o.memberCount })}
          linkType="show"
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false}>
          <DataTable.Col source="name" />
          <DataTable.Col source="slug" disableSort />
          <DataTable.Col source="memberCount" field={NumberField} />
          <DataTable.Col source="createdAt" field={DateField} />
        </DataTable>
      )}
    </List>
  );
}
