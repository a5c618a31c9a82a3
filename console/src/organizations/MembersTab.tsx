import { Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { DateField, Link, RecordContextProvider, useCreatePath } from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import type { Member } from '../providers/dataProvider';
import { AddMemberButton } from './AddMemberButton';
import { MemberRoleButton } from './MemberRoleButton';
import { RemoveMemberButton } from './RemoveMemberButton';
import { useOrgAction } from './useOrgAction';

/**
 * The organization's members with their role, each linked to the user's page; add an existing user, change a role
 * or remove a member (the last owner stays).
 */
export function MembersTab() {
  const { record } = useOrgAction();
  if (!record) return null;
  return (
    <>
      <AddMemberButton />
      {record.members?.length ? (
        <MembersTable members={record.members} />
      ) : (
        <EmptyState message="resources.organizations.members.empty" />
      )}
    </>
  );
}

function MembersTable({ members }: { members: Member[] }) {
  const { translate } = useOrgAction();
  const createPath = useCreatePath();
  return (
    <ScrollX>
      <Table size="small" data-testid="members">
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.organizations.fields.email')}</TableCell>
            <TableCell sx={wideOnly}>{translate('resources.organizations.fields.name')}</TableCell>
            <TableCell>{translate('resources.organizations.fields.role')}</TableCell>
            <TableCell sx={wideOnly}>{translate('resources.organizations.fields.joined')}</TableCell>
            <TableCell />
          </TableRow>
        </TableHead>
        <TableBody>
          {members.map((member) => (
            <TableRow key={member.id} data-testid={`member-${member.user?.email ?? member.userId}`}>
              <TableCell sx={{ wordBreak: 'break-all' }}>
                <Link to={createPath({ resource: 'users', id: member.userId, type: 'show' })}>
                  {member.user?.email ?? member.userId}
                </Link>
              </TableCell>
              <TableCell sx={wideOnly}>{member.user?.name}</TableCell>
              <TableCell>{member.role}</TableCell>
              <TableCell sx={wideOnly}>
                <RecordContextProvider value={member}>
                  <DateField source="createdAt" />
                </RecordContextProvider>
              </TableCell>
              <TableCell>
                <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
                  <MemberRoleButton member={member} />
                  <RemoveMemberButton member={member} />
                </Stack>
              </TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollX>
  );
}
