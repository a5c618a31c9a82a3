import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useCanAccess } from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import { passkeyKind, secondFactorsOf } from './secondFactor';
import { useUserAction } from './useUserAction';

/** One line of the area: a caption and what it says (the value carries the test id). */
function Row({ caption, value, testId }: { caption: string; value: string; testId: string }) {
  return (
    <Typography variant="body2" component="p">
      <Box component="span" sx={{ color: 'text.secondary' }}>
        {caption}
      </Box>{' '}
      <span data-testid={testId}>{value}</span>
    </Typography>
  );
}

/** When a passkey was added: the date and the minute. */
const added = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The user's second factors (docs/two-factor.md "For operators"): the authenticator app, on or off, and the
 * passkeys, how many and each one's name, when it was added, its kind and whether it is backed up, read from
 * admin/list-user-passkeys for a role the access model lets read it (`user: get`).
 */
export function UserSecondFactor(_props: { label?: string }) {
  const { record, dataProvider, translate, email } = useUserAction();
  const { canAccess: canList = false } = useCanAccess({ resource: 'users', action: 'list-passkeys' });
  const userId = record?.id;
  const passkeys = useQuery({
    queryKey: ['users', 'passkeys', userId],
    queryFn: () => dataProvider.listUserPasskeys(userId as string),
    enabled: !!userId && canList,
  });
  if (!record) return null;
  const factors = secondFactorsOf(record);
  const t = (key: string, options?: Record<string, unknown>) =>
    translate(`resources.users.second_factor.${key}`, options);
  // The list, once read, is the newest word on the count; the user answer's count until then.
  const count = passkeys.data?.length ?? factors.passkeys;

  let list: ReactNode = null;
  if (canList) {
    if (passkeys.isPending) list = <Typography variant="body2">{translate('ra.page.loading')}</Typography>;
    else if (passkeys.error)
      list = (
        <Typography variant="body2" color="error">
          {passkeys.error.message}
        </Typography>
      );
    else if (passkeys.data.length === 0)
      list = <EmptyState message="resources.users.second_factor.no_passkeys" testId="passkeys-empty" />;
    else
      list = (
        <ScrollX>
          <Table size="small" data-testid="passkeys" aria-label={t('passkeys_of', { email })} sx={{ maxWidth: 800 }}>
            <TableHead>
              <TableRow>
                <TableCell>{t('columns.name')}</TableCell>
                <TableCell>{t('columns.added')}</TableCell>
                <TableCell>{t('columns.kind')}</TableCell>
                <TableCell sx={wideOnly}>{t('columns.backed_up')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {passkeys.data.map((p) => (
                <TableRow key={p.id}>
                  <TableCell sx={{ wordBreak: 'break-word' }}>{p.name?.trim() || t('unnamed')}</TableCell>
                  <TableCell>{added(p.createdAt)}</TableCell>
                  <TableCell>{translate(passkeyKind(p))}</TableCell>
                  <TableCell sx={wideOnly}>{t(p.backedUp ? 'yes' : 'no')}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollX>
      );
  }

  return (
    <Box data-testid="second-factor" sx={{ display: 'flex', flexDirection: 'column', gap: 0.5 }}>
      <Row caption={t('app')} value={t(factors.app ? 'app_on' : 'app_off')} testId="second-factor-app" />
      <Row caption={t('passkeys')} value={String(count)} testId="second-factor-passkeys" />
      {list}
    </Box>
  );
}
