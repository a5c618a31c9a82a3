import Edit from '@mui/icons-material/Edit';
import { TextField } from '@mui/material';
import { useState } from 'react';
import type { Member } from '../providers/dataProvider';
import { ActionButton } from '../users/ActionButton';
import { memberName, useOrgAction } from './useOrgAction';

/** update-member-role as an operator (owner, admin, member or a configured role; comma-separated for several). */
export function MemberRoleButton({ member }: { member: Member }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const [role, setRole] = useState(member.role);
  if (!record || !canManage) return null;
  return (
    <ActionButton
      label="resources.organizations.members.change_role"
      title={translate('resources.organizations.members.change_role_title', { name: memberName(member) })}
      icon={<Edit />}
      success="resources.organizations.members.role_changed"
      onConfirm={() => dataProvider.updateMemberRole(record.id, member.id, role.trim()).then(() => undefined)}
    >
      <TextField
        autoFocus
        fullWidth
        margin="dense"
        label={translate('resources.organizations.fields.role')}
        helperText={translate('resources.organizations.members.role_help')}
        defaultValue={member.role}
        onChange={(e) => setRole(e.target.value)}
        slotProps={{ htmlInput: { 'data-testid': 'member-role-input' } }}
      />
    </ActionButton>
  );
}
