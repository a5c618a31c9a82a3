import { Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { Link, useCreatePath } from 'react-admin';
import { EmptyState } from '../common/EmptyState';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import { useUserAction } from './useUserAction';

/** The user's organizations with their role in each (admin/list-user-organizations), linked to their pages. */
export function UserOrganizations() {
  const { record, dataProvider, translate } = useUserAction();
  const createPath = useCreatePath();
  const userId = record?.id;
  const { data, isPending, error } = useQuery({
    queryKey: ['users', 'organizations', userId],
    queryFn: () => dataProvider.listUserOrganizations(userId as string),
    enabled: !!userId,
  });
  if (!record) return null;
  if (isPending) return <Typography>{translate('ra.page.loading')}</Typography>;
  if (error) return <Typography color="error">{error.message}</Typography>;
  if (data.length === 0) return <EmptyState message="resources.users.organizations.empty" />;
  return (
    <ScrollX>
      <Table size="small" data-testid="user-organizations">
        <TableHead>
          <TableRow>
            <TableCell>{translate('resources.organizations.fields.name')}</TableCell>
            <TableCell sx={wideOnly}>{translate('resources.organizations.fields.slug')}</TableCell>
            <TableCell>{translate('resources.organizations.fields.role')}</TableCell>
            <TableCell sx={wideOnly}>{translate('resources.organizations.fields.joined')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {data.map((m) => (
            <TableRow key={m.memberId}>
              <TableCell>
                <Link to={createPath({ resource: 'organizations', id: m.organization.id, type: 'show' })}>
                  {m.organization.name}
                </Link>
              </TableCell>
              <TableCell sx={wideOnly}>{m.organization.slug}</TableCell>
              <TableCell>{m.role}</TableCell>
              <TableCell sx={wideOnly}>{new Date(m.joinedAt).toLocaleString()}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </ScrollX>
  );
}
