import { Button, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Confirm, useNotify, useTranslate } from 'react-admin';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import { useUserAction } from './useUserAction';

/** The user's active sessions (list-user-sessions) with revoke one and revoke all. */
export function UserSessions() {
  const { record, dataProvider, translate, name } = useUserAction();
  const t = useTranslate();
  const notify = useNotify();
  const [confirming, setConfirming] = useState<string | 'all' | null>(null);
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

  const revoke = async () => {
    const target = confirming;
    setConfirming(null);
    try {
      if (target === 'all') await dataProvider.revokeUserSessions(record.id);
      else if (target) await dataProvider.revokeUserSession(target);
      notify(target === 'all' ? 'resources.users.sessions.revoked_all' : 'resources.users.sessions.revoked', {
        type: 'success',
      });
    } catch (e) {
      notify((e as Error).message, { type: 'error' });
    }
    await refetch();
  };

  if (isPending) return <Typography>{t('ra.page.loading')}</Typography>;
  if (error) return <Typography color="error">{error.message}</Typography>;

  return (
    <>
      {sessions.length === 0 ? (
        <Typography data-testid="sessions-empty">{translate('resources.users.sessions.empty')}</Typography>
      ) : (
        <>
          <ScrollX>
            <Table size="small" data-testid="sessions">
              <TableHead>
                <TableRow>
                  <TableCell>{t('resources.users.sessions.createdAt')}</TableCell>
                  <TableCell sx={wideOnly}>{t('resources.users.sessions.expiresAt')}</TableCell>
                  <TableCell sx={wideOnly}>{t('resources.users.sessions.ipAddress')}</TableCell>
                  <TableCell sx={wideOnly}>{t('resources.users.sessions.userAgent')}</TableCell>
                  <TableCell sx={wideOnly}>{t('resources.users.sessions.impersonatedBy')}</TableCell>
                  <TableCell />
                </TableRow>
              </TableHead>
              <TableBody>
                {sessions.map((s) => (
                  <TableRow key={s.id}>
                    <TableCell>{new Date(s.createdAt).toLocaleString()}</TableCell>
                    <TableCell sx={wideOnly}>{new Date(s.expiresAt).toLocaleString()}</TableCell>
                    <TableCell sx={wideOnly}>{s.ipAddress ?? ''}</TableCell>
                    <TableCell sx={{ ...wideOnly, maxWidth: 240, overflow: 'hidden', textOverflow: 'ellipsis' }}>
                      {s.userAgent ?? ''}
                    </TableCell>
                    <TableCell sx={wideOnly}>{s.impersonatedBy ?? ''}</TableCell>
                    <TableCell>
                      <Button size="small" color="error" onClick={() => setConfirming(s.token)}>
                        {t('resources.users.sessions.revoke')}
                      </Button>
                    </TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </ScrollX>
          <Button sx={{ mt: 1 }} size="small" color="error" onClick={() => setConfirming('all')}>
            {t('resources.users.sessions.revoke_all')}
          </Button>
        </>
      )}
      <Confirm
        isOpen={confirming !== null}
        title="resources.users.sessions.revoke"
        content={
          confirming === 'all'
            ? t('resources.users.sessions.revoke_all_confirm', { name })
            : 'resources.users.sessions.revoke_confirm'
        }
        onConfirm={revoke}
        onClose={() => setConfirming(null)}
      />
    </>
  );
}
