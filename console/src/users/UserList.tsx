import {
  BooleanField,
  CreateButton,
  DataTable,
  DateField,
  List,
  NullableBooleanInput,
  RecordContextProvider,
  SearchInput,
  SimpleList,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { useNarrow } from '../layout/useNarrow';
import type { User } from '../providers/dataProvider';
import { BanStatus } from './BanStatus';
import { RoleFilterInput } from './RoleFilterInput';
import { UserBulkActions } from './UserBulkActions';
import { FILTER_LABELS, UserFilterButton } from './UserFilterButton';

const filters = (searchPlaceholder: string) => [
  <SearchInput key="q" source="q" alwaysOn placeholder={searchPlaceholder} />,
  <RoleFilterInput key="role" source="role" label={FILTER_LABELS.role} />,
  <NullableBooleanInput key="banned" source="banned" label={FILTER_LABELS.banned} />,
  <NullableBooleanInput key="emailVerified" source="emailVerified" label={FILTER_LABELS.emailVerified} />,
];

function ListActions() {
  return (
    <TopToolbar>
      <UserFilterButton />
      <CreateButton />
    </TopToolbar>
  );
}

/**
 * Users: search (part of the email or the name, names without regard to accents), any of the filters together,
 * sort, pages, total. The Banned column shows the ban in force: an active ban's end, and No for a lapsed one.
 */
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
          tertiaryText={(u) => (
            <RecordContextProvider value={u}>
              <BanStatus compact />
            </RecordContextProvider>
          )}
          linkType="show"
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={<UserBulkActions />}>
          <DataTable.Col source="email" />
          <DataTable.Col source="name" />
          <DataTable.Col source="role" />
          <DataTable.Col source="banned">
            <BanStatus compact />
          </DataTable.Col>
          <DataTable.Col source="emailVerified" field={BooleanField} />
          <DataTable.Col source="createdAt" field={DateField} />
        </DataTable>
      )}
    </List>
  );
}
