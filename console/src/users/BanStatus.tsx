import { Chip, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { User } from '../providers/dataProvider';
import { banState } from './banState';

export interface BanStatusProps {
  /** For a list cell: plain text (the narrow list dims it), the active ban's end in bold, or No. */
  compact?: boolean;
  /** For the show layout's Labeled. */
  label?: string;
}

/**
 * The ban in force, from the record's fields: a lapsed ban (expiry passed, flag not cleared yet) reads as not
 * banned. On a profile: a sentence with the reason, an active ban as a red badge.
 */
export function BanStatus({ compact = false }: BanStatusProps) {
  const record = useRecordContext<User>();
  const translate = useTranslate();
  if (!record) return null;
  const { active, until, lapsed } = banState(record);
  const date = (until ?? lapsed)?.toLocaleString();
  const reason = record.banReason ?? '';
  const state = active ? (until ? 'until' : 'active') : lapsed ? 'lapsed' : 'none';
  const key = compact ? state : `show_${state}`;
  const text = translate(`resources.users.ban.${key}`, { date, reason });
  if (active && !compact)
    return (
      <Chip
        data-testid="ban-status"
        color="error"
        size="small"
        label={text}
        // A long reason wraps instead of running out of a narrow window.
        sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
      />
    );
  return (
    <Typography
      component="span"
      variant="body2"
      data-testid="ban-status"
      sx={active ? { fontWeight: 'bold' } : undefined}
    >
      {text}
    </Typography>
  );
}
