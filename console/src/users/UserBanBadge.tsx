import { Box } from '@mui/material';
import { useRecordContext } from 'react-admin';
import type { User } from '../providers/dataProvider';
import { BanStatus } from './BanStatus';
import { banState } from './banState';

/** Above the user page's tabs: the active ban's badge, so it shows whichever tab is open. */
export function UserBanBadge() {
  const record = useRecordContext<User>();
  if (!record || !banState(record).active) return null;
  return (
    <Box sx={{ px: 2, pt: 2 }}>
      <BanStatus activeOnly testId="ban-badge" />
    </Box>
  );
}
