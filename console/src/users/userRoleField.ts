import type { TranslateFunction } from 'react-admin';
import type { PromptField } from '../common/PromptDialog';
import { roleField } from '../common/roleField';

/** The user-role field of Set role and Edit: several configured user roles, picked; text when the list is away. */
export function userRoleField(
  translate: TranslateFunction,
  userRoles: readonly string[] | undefined,
  current: string,
  testId: string,
): PromptField {
  return roleField({
    name: 'role',
    label: translate('resources.users.fields.role'),
    names: userRoles,
    current,
    multiple: true,
    pickHelp: translate('resources.users.actions.role_pick_help'),
    typeHelp: translate('resources.users.actions.role_help'),
    required: true,
    testId,
  });
}
