import PersonRemove from '@mui/icons-material/PersonRemove';
import { PromptButton } from '../common/PromptButton';
import type { Member } from '../providers/dataProvider';
import { memberEmail, useOrgAction } from './useOrgAction';

export function RemoveMemberButton({ member }: { member: Member }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  const target = { email: memberEmail(member), organization: record.name };
  return (
    <PromptButton
      label="resources.organizations.members.remove"
      title={translate('resources.organizations.members.remove_title', target)}
      message={translate('resources.organizations.members.remove_confirm', target)}
      icon={<PersonRemove />}
      color="error"
      onConfirm={() => dataProvider.removeMember(record.id, member.id)}
      success={() => translate('resources.organizations.members.removed', target)}
    />
  );
}
