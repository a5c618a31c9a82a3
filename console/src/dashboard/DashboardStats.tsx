import { Alert, Box, Card, CardContent, Skeleton, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useDataProvider, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { SignUpsChart } from './SignUpsChart';

/** How many days of sign-ups the chart shows. */
export const CHART_DAYS = 30;

/** The counts admin/stats answers, in the order the cards show them (i18n key = field name). */
const COUNTS = ['users', 'newUsers7d', 'activeSessions', 'bannedUsers', 'organizations'] as const;

/** The dashboard's figures from admin/stats: five counts, then daily sign-ups over the last CHART_DAYS days. */
export function DashboardStats() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const { data, isError, error } = useQuery({
    queryKey: ['stats', CHART_DAYS],
    queryFn: () => dataProvider.getStats(CHART_DAYS),
  });
  if (isError) return <Alert severity="error">{(error as Error).message}</Alert>;
  return (
    <>
      <Box
        component="section"
        aria-label={translate('console.dashboard.counts')}
        sx={{ display: 'grid', gap: 2, gridTemplateColumns: 'repeat(auto-fit, minmax(150px, 1fr))' }}
      >
        {COUNTS.map((field) => (
          <Card key={field} variant="outlined" data-testid={`stat-${field}`}>
            <CardContent>
              <Typography variant="body2" color="text.secondary" component="h2">
                {translate(`console.dashboard.stats.${field}`)}
              </Typography>
              <Typography variant="h4" component="p" data-testid={`stat-${field}-value`}>
                {data ? formatCount(data[field]) : <Skeleton width="3ch" />}
              </Typography>
            </CardContent>
          </Card>
        ))}
      </Box>
      <Card>
        <CardContent>{data ? <SignUpsChart days={data.signUpsPerDay} /> : <Skeleton height={160} />}</CardContent>
      </Card>
    </>
  );
}

export const formatCount = (n: number) => new Intl.NumberFormat().format(n);
