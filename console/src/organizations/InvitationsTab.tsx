import { Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { EmptyState } from '../common/EmptyState';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import { InvitationActions } from './InvitationActions';
import { InviteButton } from './InviteButton';
import { useOrgAction } from './useOrgAction';

/** The organization's invitations (every status), newest first as the API lists them; invite, resend, cancel. */
export function InvitationsTab() {
  const { record, translate } = useOrgAction();
  if (!record) return null;
  const status = (s: string) => translate(`resources.organizations.invitations.status.${s}`);
  return (
    <>
      <InviteButton />
      {!record.invitations?.length ? (
        <EmptyState message="resources.organizations.invitations.empty" testId="invitations-empty" />
      ) : (
        <ScrollX>
          <Table size="small" data-testid="invitations">
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.organizations.fields.email')}</TableCell>
                <TableCell>{translate('resources.organizations.fields.role')}</TableCell>
                <TableCell>{translate('resources.organizations.fields.status')}</TableCell>
                <TableCell sx={wideOnly}>{translate('resources.organizations.fields.expiresAt')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {record.invitations.map((invitation) => (
                <TableRow key={invitation.id} data-testid={`invitation-${invitation.email}`}>
                  <TableCell sx={{ wordBreak: 'break-all' }}>{invitation.email}</TableCell>
                  <TableCell>{invitation.role}</TableCell>
                  <TableCell>{status(invitation.status)}</TableCell>
                  <TableCell sx={wideOnly}>{new Date(invitation.expiresAt).toLocaleString()}</TableCell>
                  <TableCell>
                    <InvitationActions invitation={invitation} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollX>
      )}
    </>
  );
}
