import GroupAdd from '@mui/icons-material/GroupAdd';
import { useRef } from 'react';
import { PromptButton } from '../common/PromptButton';
import { roleField } from '../common/roleField';
import { useRoles } from '../common/useRoles';
import { useOrgAction } from './useOrgAction';

/** The role the dialog opens with. */
const ADDED_AS = 'member';

/**
 * admin/organization/add-member: an existing user, found by typing part of their email (users already in the
 * organization are not offered), joins at once with one or more configured organization roles (no invitation, no
 * mail). Opens empty, with the member role picked, every time.
 */
export function AddMemberButton() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const { organizationRoles } = useRoles();
  // Emails of the users the search offered, to name the one picked in the notification.
  const emails = useRef(new Map<string, string>());
  if (!record || !canManage) return null;
  const organization = record.name;
  const members = new Set((record.members ?? []).map((m) => m.userId));
  const search = async (text: string) => {
    const users = await dataProvider.searchUsersByEmail(text);
    for (const u of users) emails.current.set(u.id, u.email);
    return users
      .filter((u) => !members.has(u.id))
      .map((u) => ({ value: u.id, label: u.name && u.name !== u.email ? `${u.email} (${u.name})` : u.email }));
  };
  return (
    <PromptButton
      label="resources.organizations.members.add"
      title={translate('resources.organizations.members.add_title', { organization })}
      message={translate('resources.organizations.members.add_explain')}
      icon={<GroupAdd />}
      fields={[
        {
          name: 'userId',
          label: translate('resources.organizations.members.add_user'),
          helperText: translate('resources.organizations.members.add_user_help'),
          required: true,
          search,
          testId: 'add-member-user',
        },
        roleField({
          name: 'role',
          label: translate('resources.organizations.fields.role'),
          names: organizationRoles,
          current: ADDED_AS,
          multiple: true,
          pickHelp: translate('resources.organizations.members.role_pick_help'),
          typeHelp: translate('resources.organizations.members.role_help'),
          required: true,
          testId: 'add-member-role',
        }),
      ]}
      initial={{ role: ADDED_AS }}
      onConfirm={({ userId, role }) => dataProvider.addMember(record.id, userId, role.trim())}
      success={({ userId, role }) =>
        translate('resources.organizations.members.added', {
          email: emails.current.get(userId) ?? userId,
          organization,
          role: role.trim(),
        })
      }
    />
  );
}
