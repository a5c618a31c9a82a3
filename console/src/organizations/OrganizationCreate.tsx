import { AutocompleteInput, Create, ReferenceInput, regex, required, SimpleForm, TextInput } from 'react-admin';

const slug = regex(/^[a-z0-9][a-z0-9-]*$/, 'resources.organizations.slug_help');

/** admin/organization/create: the owner is the chosen user (searched by email), else the signed-in operator. */
export function OrganizationCreate() {
  return (
    <Create redirect="show">
      <SimpleForm>
        <TextInput source="name" validate={required()} />
        <TextInput source="slug" validate={[required(), slug]} helperText="resources.organizations.slug_help" />
        <ReferenceInput source="userId" reference="users">
          <AutocompleteInput
            label="resources.organizations.fields.owner"
            helperText="resources.organizations.owner_help"
            optionText="email"
            filterToQuery={(q: string) => ({ q })}
          />
        </ReferenceInput>
      </SimpleForm>
    </Create>
  );
}
