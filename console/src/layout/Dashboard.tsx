import { Card, CardContent, Stack, Typography } from '@mui/material';
import { Title, useCanAccess, useGetIdentity, useLocaleState, useTranslate } from 'react-admin';
import { DashboardStats } from '../dashboard/DashboardStats';
import { dashboardIntro } from '../dashboard/intro';
import { canAccessWithRole } from '../providers/access';

/**
 * The home page: who is signed in and what the menu lets them do, then (for a role that may list users, which
 * admin/stats needs) the figures. An impersonation session lands here too: it is told it acts as the user, and sees
 * no figures (it holds no admin permission).
 */
export function Dashboard() {
  const { identity } = useGetIdentity();
  const translate = useTranslate();
  const [locale] = useLocaleState();
  const { canAccess: canSeeStats = false } = useCanAccess({ resource: 'dashboard', action: 'stats' });
  const intro = dashboardIntro(!!identity?.impersonatedBy, (resource, action) =>
    canAccessWithRole(identity?.role, resource, action),
  );
  const areas = new Intl.ListFormat(locale, { type: 'conjunction' }).format(intro.phrases.map((p) => translate(p)));
  return (
    <Stack spacing={2} sx={{ mt: 1 }}>
      <Card>
        <Title title="console.title" />
        <CardContent>
          <Typography variant="h6" component="h1">
            {translate('console.dashboard.welcome', { name: identity?.fullName ?? identity?.email ?? '' })}
          </Typography>
          {identity && (
            <Typography variant="body2" data-testid="dashboard-intro">
              {translate(intro.key, { areas })}
            </Typography>
          )}
        </CardContent>
      </Card>
      {canSeeStats && <DashboardStats />}
    </Stack>
  );
}
