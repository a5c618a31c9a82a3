import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { PromptButton } from '../common/PromptButton';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import { useUserAction } from './useUserAction';

/** The user's active sessions (list-user-sessions) with revoke one and revoke all, each confirmed by name. */
export function UserSessions() {
  const { record, dataProvider, translate, email } = useUserAction();
  const userId = record?.id;
  const {
    data: sessions,
    refetch,
    isPending,
    error,
  } = useQuery({
    queryKey: ['users', 'sessions', userId],
    queryFn: () => dataProvider.listUserSessions(userId as string),
    enabled: !!userId,
  });
  if (!record) return null;
  if (isPending) return <Typography>{translate('ra.page.loading')}</Typography>;
  if (error) return <Typography color="error">{error.message}</Typography>;
  const after = () => refetch();

  if (sessions.length === 0)
    return <Typography data-testid="sessions-empty">{translate('resources.users.sessions.empty')}</Typography>;
  return (
    <>
      <ScrollX>
        <Table size="small" data-testid="sessions">
          <TableHead>
            <TableRow>
              <TableCell>{translate('resources.users.sessions.createdAt')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.users.sessions.expiresAt')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.users.sessions.ipAddress')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.users.sessions.userAgent')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.users.sessions.impersonatedBy')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {sessions.map((s) => {
              const date = new Date(s.createdAt).toLocaleString();
              const ip = s.ipAddress || translate('resources.users.sessions.unknown_ip');
              return (
                <TableRow key={s.id}>
                  <TableCell>{date}</TableCell>
                  <TableCell sx={wideOnly}>{new Date(s.expiresAt).toLocaleString()}</TableCell>
                  <TableCell sx={wideOnly}>{s.ipAddress ?? ''}</TableCell>
                  <TableCell sx={{ ...wideOnly, maxWidth: 240, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                    {s.userAgent ?? ''}
                  </TableCell>
                  <TableCell sx={wideOnly}>{s.impersonatedBy ?? ''}</TableCell>
                  <TableCell>
                    <PromptButton
                      label="resources.users.sessions.revoke"
                      title={translate('resources.users.sessions.revoke_title', { email })}
                      message={translate('resources.users.sessions.revoke_confirm', { email, date, ip })}
                      color="error"
                      onConfirm={() => dataProvider.revokeUserSession(s.token)}
                      success={() => translate('resources.users.sessions.revoked', { email })}
                      after={after}
                    />
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </ScrollX>
      <PromptButton
        label="resources.users.sessions.revoke_all"
        title={translate('resources.users.sessions.revoke_all_title', { email })}
        message={translate('resources.users.sessions.revoke_all_confirm', { email })}
        color="error"
        onConfirm={() => dataProvider.revokeUserSessions(record.id)}
        success={() => translate('resources.users.sessions.revoked_all', { email })}
        after={after}
      />
    </>
  );
}
