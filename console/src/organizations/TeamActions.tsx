import Delete from '@mui/icons-material/Delete';
import DriveFileRenameOutline from '@mui/icons-material/DriveFileRenameOutline';
import PersonAdd from '@mui/icons-material/PersonAdd';
import { PromptButton } from '../common/PromptButton';
import type { Team } from '../providers/dataProvider';
import { memberName, useOrgAction } from './useOrgAction';

/** update-team: the dialog opens with the team's current name every time. */
export function RenameTeamButton({ team }: { team: Team }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  return (
    <PromptButton
      label="resources.organizations.teams.rename"
      title={translate('resources.organizations.teams.rename_title', { name: team.name })}
      icon={<DriveFileRenameOutline />}
      fields={[
        {
          name: 'name',
          label: translate('resources.organizations.fields.name'),
          required: true,
          testId: 'team-rename',
        },
      ]}
      initial={{ name: team.name }}
      onConfirm={({ name }) => dataProvider.renameTeam(record.id, team.id, name.trim())}
      success={({ name }) => translate('resources.organizations.teams.renamed', { from: team.name, name: name.trim() })}
    />
  );
}

export function RemoveTeamButton({ team }: { team: Team }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  return (
    <PromptButton
      label="resources.organizations.teams.remove"
      title={translate('resources.organizations.teams.remove_title', { name: team.name })}
      message={translate('resources.organizations.teams.remove_confirm', { name: team.name })}
      icon={<Delete />}
      color="error"
      onConfirm={() => dataProvider.removeTeam(record.id, team.id)}
      success={() => translate('resources.organizations.teams.removed', { name: team.name })}
    />
  );
}

/** Adds one of the organization's members who is not in the team yet; no one chosen at each opening. */
export function AddTeamMemberButton({ team, inTeam }: { team: Team; inTeam: Set<string> }) {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  const candidates = (record.members ?? []).filter((m) => !inTeam.has(m.userId));
  const nameOf = (userId: string) => {
    const member = candidates.find((m) => m.userId === userId);
    return member ? memberName(member) : userId;
  };
  return (
    <PromptButton
      label="resources.organizations.teams.add_member"
      title={translate('resources.organizations.teams.add_member_title', { name: team.name })}
      icon={<PersonAdd />}
      disabled={candidates.length === 0}
      fields={[
        {
          name: 'userId',
          label: translate('resources.organizations.teams.member'),
          required: true,
          options: candidates.map((m) => ({ value: m.userId, label: `${memberName(m)} (${m.user?.email})` })),
          testId: 'team-member-select',
        },
      ]}
      onConfirm={({ userId }) => dataProvider.addTeamMember(record.id, team.id, userId)}
      success={({ userId }) =>
        translate('resources.organizations.teams.member_added', { name: nameOf(userId), team: team.name })
      }
    />
  );
}
