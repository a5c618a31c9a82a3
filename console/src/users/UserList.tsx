import {
  BooleanField,
  CreateButton,
  DataTable,
  DateField,
  FilterButton,
  List,
  NullableBooleanInput,
  SearchInput,
  SimpleList,
  TextInput,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { useNarrow } from '../layout/useNarrow';
import type { User } from '../providers/dataProvider';

const filters = (searchPlaceholder: string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={searchPlaceholder} />,
  <TextInput key="role" source="role" label="resources.users.fields.role" />,
  <NullableBooleanInput key="banned" source="banned" label="resources.users.fields.banned" />,
  <NullableBooleanInput key="emailVerified" source="emailVerified" label="resources.users.fields.emailVerified" />,
];

function ListActions() {
  return (
    <TopToolbar>
      <FilterButton />
      <CreateButton />
    </TopToolbar>
  );
}

/** Users: search (email when the text has an @, else name), one filter at a time, sort, pages, total. */
export function UserList() {
  const translate = useTranslate();
  const narrow = useNarrow();
  return (
    <List
      filters={filters(translate('resources.users.fields.q'))}
      actions={<ListActions />}
      sort={{ field: 'createdAt', order: 'DESC' }}
      perPage={25}
    >
      {narrow ? (
        <SimpleList<User>
          primaryText={(u) => u.email}
          secondaryText={(u) => u.name}
          tertiaryText={(u) => (u.banned ? translate('resources.users.fields.banned') : u.role)}
          linkType="show"
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false}>
          <DataTable.Col source="email" />
          <DataTable.Col source="name" />
          <DataTable.Col source="role" />
          <DataTable.Col source="banned" field={BooleanField} />
          <DataTable.Col source="emailVerified" field={BooleanField} />
          <DataTable.Col source="createdAt" field={DateField} />
        </DataTable>
      )}
    </List>
  );
}
