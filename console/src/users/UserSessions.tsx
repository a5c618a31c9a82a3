import { Chip, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { type TranslateFunction, useGetIdentity } from 'react-admin';
import { PromptButton } from '../common/PromptButton';
import { ScrollX } from '../layout/ScrollX';
import { useNarrow, wideOnly } from '../layout/useNarrow';
import type { Session } from '../providers/dataProvider';
import { describeSignIn } from './signInMethod';
import { parseUserAgent } from './userAgent';
import { useUserAction } from './useUserAction';

/** A session's device ("Apple iPhone · iOS 17.1", "Computer · Linux") and browser, in words. */
export function describeSession(session: Pick<Session, 'userAgent'>, translate: TranslateFunction) {
  const agent = parseUserAgent(session.userAgent);
  const what = agent.model ?? (agent.kind ? translate(`resources.users.sessions.kinds.${agent.kind}`) : null);
  const device = [what, agent.os].filter(Boolean).join(' · ') || translate('resources.users.sessions.unknown_device');
  return { device, browser: agent.browser ?? translate('resources.users.sessions.unknown_browser') };
}

/**
 * The user's active sessions (list-user-sessions, without their tokens): device and browser read from the user
 * agent, how it was made (its own column, or under the device in a narrow window), address, start and last
 * activity, this browser's own session marked. Revoke one (by its id) or all, each confirmed by name.
 */
export function UserSessions() {
  const { record, dataProvider, translate, email } = useUserAction();
  const { identity } = useGetIdentity();
  const narrow = useNarrow();
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
  const time = (iso: string) => new Date(iso).toLocaleString();

  if (sessions.length === 0)
    return <Typography data-testid="sessions-empty">{translate('resources.users.sessions.empty')}</Typography>;
  return (
    <>
      <ScrollX>
        <Table size="small" data-testid="sessions">
          <TableHead>
            <TableRow>
              <TableCell>{translate('resources.users.sessions.device')}</TableCell>
              <TableCell>{translate('resources.users.sessions.browser')}</TableCell>
              {!narrow && <TableCell>{translate('resources.users.sessions.signedInWith')}</TableCell>}
              <TableCell sx={wideOnly}>{translate('resources.users.sessions.ipAddress')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.users.sessions.createdAt')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.users.sessions.updatedAt')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.users.sessions.impersonatedBy')}</TableCell>
              <TableCell />
            </TableRow>
          </TableHead>
          <TableBody>
            {sessions.map((s) => {
              const { device, browser } = describeSession(s, translate);
              const signedInWith = describeSignIn(s, translate);
              const date = time(s.createdAt);
              const ip = s.ipAddress || translate('resources.users.sessions.unknown_ip');
              const own = !!identity?.sessionId && identity.sessionId === s.id;
              const confirm = translate('resources.users.sessions.revoke_confirm', {
                email,
                device,
                browser,
                ip,
                date,
              });
              return (
                <TableRow key={s.id} data-testid={`session-${s.id}`}>
                  <TableCell title={s.userAgent ?? undefined}>
                    {device}
                    {own && (
                      <Chip
                        size="small"
                        color="primary"
                        variant="outlined"
                        label={translate('resources.users.sessions.this_session')}
                        sx={{ ml: 1 }}
                      />
                    )}
                    {narrow && (
                      <Typography
                        variant="caption"
                        component="div"
                        color="text.secondary"
                        sx={{ mt: 0.5 }}
                        data-testid="signed-in-with-line"
                      >
                        {translate('resources.users.sessions.signed_in_with_line', { method: signedInWith })}
                      </Typography>
                    )}
                  </TableCell>
                  <TableCell>{browser}</TableCell>
                  {!narrow && <TableCell data-testid="signed-in-with">{signedInWith}</TableCell>}
                  <TableCell sx={wideOnly}>{s.ipAddress ?? ''}</TableCell>
                  <TableCell sx={wideOnly}>{date}</TableCell>
                  <TableCell sx={wideOnly}>{time(s.updatedAt)}</TableCell>
                  <TableCell sx={wideOnly}>{s.impersonatedBy ?? ''}</TableCell>
                  <TableCell>
                    <PromptButton
                      label="resources.users.sessions.revoke"
                      title={translate('resources.users.sessions.revoke_title', { email })}
                      message={own ? `${confirm} ${translate('resources.users.sessions.revoke_own')}` : confirm}
                      color="error"
                      onConfirm={() => dataProvider.revokeUserSession(s.id)}
                      success={() => translate('resources.users.sessions.revoked', { email, device, browser })}
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
