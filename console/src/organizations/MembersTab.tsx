import { Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { DateField, RecordContextProvider } from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import { MemberRoleButton } from './MemberRoleButton';
import { RemoveMemberButton } from './RemoveMemberButton';
import { useOrgAction } from './useOrgAction';

/** The organization's members with their role; change a role or remove a member (the last owner stays). */
export function MembersTab() {
  const { record, translate } = useOrgAction();
  if (!record) return null;
  if (!record.members?.length) return <EmptyState message="resources.organizations.members.empty" />;
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
          {record.members.map((member) => (
            <TableRow key={member.id} data-testid={`member-${member.user?.email ?? member.userId}`}>
              <TableCell sx={{ wordBreak: 'break-all' }}>{member.user?.email}</TableCell>
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
