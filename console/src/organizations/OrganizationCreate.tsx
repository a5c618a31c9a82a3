import {
  AutocompleteInput,
  Create,
  ReferenceInput,
  regex,
  required,
  SimpleForm,
  TextInput,
  useNotify,
  useRedirect,
} from 'react-admin';
import { useRefusalInForm } from '../common/useRefusalInForm';
import type { FullOrganization } from '../providers/dataProvider';

const slug = regex(/^[a-z0-9][a-z0-9-]*$/, 'resources.organizations.slug_help');

/**
 * admin/organization/create: the owner is the chosen user, else the signed-in operator. The owner box searches part
 * of the email or the name, names without regard to accents (the users list's search: searchField any). A slug
 * another organization holds is refused under the slug field.
 */
export function OrganizationCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  const onError = useRefusalInForm();
  const onSuccess = (org: FullOrganization) => {
    notify('resources.organizations.notifications.created', { type: 'success', messageArgs: { name: org.name } });
    redirect('show', 'organizations', org.id, org);
  };
  return (
    <Create redirect="show" mutationOptions={{ onSuccess, onError }}>
      {/* A refused field shows its message under it (no "form not valid" notification on top). */}
      <SimpleForm disableInvalidFormNotification>
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
