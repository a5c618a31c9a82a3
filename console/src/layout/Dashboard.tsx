import { Card, CardContent, Stack, Typography } from '@mui/material';
import { Title, useCanAccess, useGetIdentity, useTranslate } from 'react-admin';
import { DashboardStats } from '../dashboard/DashboardStats';

/**
 * The home page: who is signed in, then (for a role that may list users, which admin/stats needs) the figures. An
 * impersonation session lands here too and sees the greeting only (it holds no admin permission).
 */
export function Dashboard() {
  const { identity } = useGetIdentity();
  const translate = useTranslate();
  const { canAccess: canSeeStats = false } = useCanAccess({ resource: 'dashboard', action: 'stats' });
  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      <Card>
        <Title title="console.title" />
        <CardContent>
          <Typography variant="h6" component="h1">
            {translate('console.dashboard.welcome', { name: identity?.fullName ?? identity?.email ?? '' })}
          </Typography>
          <Typography variant="body2">{translate('console.dashboard.intro')}</Typography>
        </CardContent>
      </Card>
      {canSeeStats && <DashboardStats />}
    </Stack>
  );
}
