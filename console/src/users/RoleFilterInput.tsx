import { SelectInput, TextInput, useListContext } from 'react-admin';
import { useRoles } from '../common/useRoles';

/**
 * The users list's role filter: a choice of the configured user roles (list-users' `role` parameter compares the
 * role text for equality, so one role at a time; it applies together with the other filters); a text field when
 * the roles cannot be read. A role in the link the list lacks is
 * offered too, so the filter shows what the list applies.
 */
export function RoleFilterInput(props: { source: 'role'; label: string }) {
  const { userRoles, isPending } = useRoles();
  const { filterValues } = useListContext();
  if (!userRoles) return <TextInput {...props} />;
  const current = typeof filterValues.role === 'string' ? filterValues.role : '';
  const names = current && !userRoles.includes(current) ? [...userRoles, current] : userRoles;
  return (
    <SelectInput
      {...props}
      choices={names.map((name) => ({ id: name, name }))}
      translateChoice={false}
      isPending={isPending}
    />
  );
}
