import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { EmptyState } from '../common/EmptyState';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import { useUserAction } from './useUserAction';

/** The user's linked accounts (admin/list-user-accounts): provider, account id, scopes; never tokens. */
export function UserAccounts() {
  const { record, dataProvider, translate } = useUserAction();
  const userId = record?.id;
  const { data, isPending, error } = useQuery({
    queryKey: ['users', 'accounts', userId],
    queryFn: () => dataProvider.listUserAccounts(userId as string),
    enabled: !!userId,
  });
  if (!record) return null;
  if (isPending) return <Typography>{translate('ra.page.loading')}</Typography>;
  if (error) return <Typography color="error">{error.message}</Typography>;
  if (data.length === 0) return <EmptyState message="resources.users.accounts.empty" />;
  return (
    <ScrollX>
      <Table size="small" data-testid="accounts">
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.users.accounts.provider')}</TableCell>
            <TableCell>{translate('resources.users.accounts.accountId')}</TableCell>
            <TableCell sx={wideOnly}>{translate('resources.users.accounts.scopes')}</TableCell>
            <TableCell sx={wideOnly}>{translate('resources.users.accounts.linkedAt')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.map((a) => (
            <TableRow key={a.id}>
              <TableCell>
                {a.providerId === 'credential' ? translate('resources.users.accounts.credential') : a.providerId}
              </TableCell>
              <TableCell sx={{ wordBreak: 'break-all' }}>{a.accountId}</TableCell>
              <TableCell sx={wideOnly}>{a.scopes.join(', ')}</TableCell>
              <TableCell sx={wideOnly}>{new Date(a.createdAt).toLocaleString()}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollX>
  );
}
