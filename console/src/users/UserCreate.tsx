import { Create, email, PasswordInput, required, SimpleForm, TextInput } from 'react-admin';

/** create-user: email, name, password and an optional role (the service's default role when empty). */
export function UserCreate() {
  return (
    <Create redirect="show">
      <SimpleForm>
        <TextInput source="email" type="email" validate={[required(), email()]} />
        <TextInput source="name" validate={required()} />
        <PasswordInput source="password" validate={required()} autoComplete="new-password" />
        <TextInput source="role" helperText="resources.users.actions.role_help" />
      </SimpleForm>
    </Create>
  );
}
