import PersonRemove from '@mui/icons-material/PersonRemove';
import { DialogContentText } from '@mui/material';
import type { Member } from '../providers/dataProvider';
import { ActionButton } from '../users/ActionButton';
import { memberName, useOrgAction } from './useOrgAction';

export function RemoveMemberButton({ member }: { member: Member }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  const name = memberName(member);
  return (
    <ActionButton
      label="resources.organizations.members.remove"
      title={translate('resources.organizations.members.remove')}
      icon={<PersonRemove />}
      color="error"
      success="resources.organizations.members.removed"
      onConfirm={() => dataProvider.removeMember(record.id, member.id)}
    >
      <DialogContentText>
        {translate('resources.organizations.members.remove_confirm', { name, organization: record.name })}
      </DialogContentText>
    </ActionButton>
  );
}
