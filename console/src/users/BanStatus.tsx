import { Chip, Typography } from '@mui/material';
import { useRecordContext, useTranslate } from 'react-admin';
import type { User } from '../providers/dataProvider';
import { banState } from './banState';

export interface BanStatusProps {
  /** For a list cell: "No" rather than "Not banned". */
  compact?: boolean;
  /** For the show layout's Labeled. */
  label?: string;
  /** Only an active ban, as its badge (the user page's header); nothing otherwise. */
  activeOnly?: boolean;
  testId?: string;
}

/** A ban's end, short: the date and the minute. */
const when = (date: Date) => date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * The ban in force, from the record's fields, the same in the list and on the profile: an active ban is a red badge
 * saying until when and why; a lapsed ban (expiry passed, flag not cleared yet) reads as not banned.
 */
export function BanStatus({ compact = false, activeOnly = false, testId = 'ban-status' }: BanStatusProps) {
  const record = useRecordContext<User>();
  const translate = useTranslate();
  if (!record) return null;
  const { active, until, lapsed } = banState(record);
  if (active) {
    const badge = until
      ? translate('resources.users.ban.badge_until', { date: when(until) })
      : translate('resources.users.ban.badge_forever');
    const reason = record.banReason?.trim();
    return (
      <Chip
        component="span"
        data-testid={testId}
        color="error"
        size="small"
        label={reason ? translate('resources.users.ban.badge_reason', { badge, reason }) : badge}
        // A long reason wraps instead of running out of a narrow window.
        sx={{ maxWidth: '100%', height: 'auto', '& .MuiChip-label': { whiteSpace: 'normal', py: 0.25 } }}
      />
    );
  }
  if (activeOnly) return null;
  const state = lapsed ? 'lapsed' : 'none';
  const text = translate(`resources.users.ban.${compact ? state : `show_${state}`}`, {
    date: lapsed ? when(lapsed) : '',
  });
  return (
    <Typography component="span" variant="body2" data-testid={testId}>
      {text}
    </Typography>
  );
}
