import { Card, CardContent, Typography } from '@mui/material';
import { Title, useGetIdentity, useTranslate } from 'react-admin';

/** The home page: who is signed in. An impersonation session lands here (it holds no admin permission). */
export function Dashboard() {
  const { identity } = useGetIdentity();
  const translate = useTranslate();
  return (
    <Card>
      <Title title="console.title" />
      <CardContent>
        <Typography variant="h6">
          {translate('console.dashboard.welcome', { name: identity?.fullName ?? identity?.email ?? '' })}
        </Typography>
        <Typography variant="body2">{translate('console.dashboard.intro')}</Typography>
      </CardContent>
    </Card>
  );
}
