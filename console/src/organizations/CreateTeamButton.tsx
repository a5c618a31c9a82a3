import GroupAdd from '@mui/icons-material/GroupAdd';
import { PromptButton } from '../common/PromptButton';
import { useOrgAction } from './useOrgAction';

/** create-team: an empty name field every time. */
export function CreateTeamButton() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  return (
    <PromptButton
      label="resources.organizations.teams.create"
      title={translate('resources.organizations.teams.create_title', { organization: record.name })}
      icon={<GroupAdd />}
      fields={[
        { name: 'name', label: translate('resources.organizations.fields.name'), required: true, testId: 'team-name' },
      ]}
      onConfirm={({ name }) => dataProvider.createTeam(record.id, name.trim())}
      success={({ name }) => translate('resources.organizations.teams.created', { name: name.trim() })}
    />
  );
}
