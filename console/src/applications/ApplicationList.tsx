import { Box, Typography } from '@mui/material';
import {
  AutocompleteInput,
  CreateButton,
  DataTable,
  FilterButton,
  FunctionField,
  List,
  ReferenceField,
  ReferenceInput,
  SearchInput,
  SelectInput,
  SimpleList,
  TextField,
  TopToolbar,
  useTranslate,
} from 'react-admin';
import { useNarrow } from '../layout/useNarrow';
import { type Application, grantLabel } from './applicationForm';

function ListActions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <FilterButton />
      <CreateButton label="resources.applications.create.button" />
    </TopToolbar>
  );
}

/** No application yet (or none matching): what applications are. */
function Empty() {
  const translate = useTranslate();
  return (
    <Box sx={{ p: 2 }} data-testid="applications-empty">
      <Typography variant="h6" component="p">
        {translate('resources.applications.empty')}
      </Typography>
      <Typography variant="body2" sx={{ mt: 1 }}>
        {translate('resources.applications.intro')}
      </Typography>
    </Box>
  );
}

/** The owning organization by name, or "The service's own". */
function Owner() {
  const translate = useTranslate();
  return (
    <ReferenceField
      source="organizationId"
      reference="organizations"
      link="show"
      emptyText={translate('resources.applications.service_own')}
    >
      <TextField source="name" />
    </ReferenceField>
  );
}

/**
 * admin/list-oauth-clients: the registered applications, newest first, a page at a time, never a secret. Filters:
 * part of the name, the type, the owning organization. One column in a narrow window.
 */
export function ApplicationList() {
  const narrow = useNarrow();
  const translate = useTranslate();
  const typeChoices = ['confidential', 'public'].map((id) => ({
    id,
    name: translate(`resources.applications.type.${id}`),
  }));
  const filters = [
    <SearchInput key="q" source="q" alwaysOn placeholder={translate('resources.applications.fields.q')} />,
    <SelectInput key="type" source="type" choices={typeChoices} emptyText="resources.applications.filters.any_type" />,
    <ReferenceInput key="organizationId" source="organizationId" reference="organizations">
      <AutocompleteInput
        label="resources.applications.fields.organizationId"
        optionText="name"
        filterToQuery={(q: string) => ({ q })}
      />
    </ReferenceInput>,
  ];
  return (
    <List perPage={25} filters={filters} actions={<ListActions />} empty={false}>
      {narrow ? (
        <SimpleList<Application>
          primaryText={(a) => a.name}
          secondaryText={(a) => translate(`resources.applications.type.${a.type}`)}
          tertiaryText={(a) => <span style={{ wordBreak: 'break-all' }}>{a.clientId}</span>}
          linkType="show"
          empty={<Empty />}
        />
      ) : (
        <DataTable rowClick="show" bulkActionButtons={false} empty={<Empty />}>
          <DataTable.Col source="name" disableSort />
          <DataTable.Col source="type" disableSort>
            <FunctionField<Application> render={(a) => translate(`resources.applications.type.${a.type}`)} />
          </DataTable.Col>
          <DataTable.Col source="grantTypes" disableSort>
            <FunctionField<Application> render={(a) => a.grantTypes.map(grantLabel).join(', ')} />
          </DataTable.Col>
          <DataTable.Col source="clientId" disableSort cellSx={() => ({ wordBreak: 'break-all' })} />
          <DataTable.Col source="organizationId" disableSort>
            <Owner />
          </DataTable.Col>
        </DataTable>
      )}
    </List>
  );
}
