import { Create, email, PasswordInput, required, SimpleForm, TextInput, useNotify, useRedirect } from 'react-admin';
import { useRefusalInForm } from '../common/useRefusalInForm';
import type { User } from '../providers/dataProvider';

/**
 * create-user: email, name, password and an optional role (the service's default role when empty). A refusal about
 * one field (an email another user holds, a password the length rules refuse, an unknown role) shows under it.
 */
export function UserCreate() {
  const notify = useNotify();
  const redirect = useRedirect();
  const onError = useRefusalInForm();
  const onSuccess = (user: User) => {
    notify('resources.users.notifications.created', { type: 'success', messageArgs: { email: user.email } });
    redirect('show', 'users', user.id, user);
  };
  return (
    <Create redirect="show" mutationOptions={{ onSuccess, onError }}>
      {/* A refused field shows its message under it (no "form not valid" notification on top). */}
      <SimpleForm disableInvalidFormNotification>
        <TextInput source="email" type="email" validate={[required(), email()]} />
        <TextInput source="name" validate={required()} />
        <PasswordInput source="password" validate={required()} autoComplete="new-password" />
        <TextInput source="role" helperText="resources.users.actions.role_help" />
      </SimpleForm>
    </Create>
  );
}
