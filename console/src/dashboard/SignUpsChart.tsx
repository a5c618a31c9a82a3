import { Box, Table, TableBody, TableCell, TableHead, TableRow, Typography, useTheme } from '@mui/material';
import { useId } from 'react';
import { useTranslate } from 'react-admin';
import type { Stats } from '../providers/dataProvider';

type SignUpDay = Stats['signUpsPerDay'][number];

/** The drawing's own units: the SVG scales to the card's width, bars keep their proportions. */
const WIDTH = 600;
const HEIGHT = 160;
const GAP = 2;

/** A day as the operator reads it ("24 Nov"), from the API's UTC day. */
const dayLabel = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString(undefined, { day: 'numeric', month: 'short', timeZone: 'UTC' });

/**
 * Sign-ups per UTC day as bars (oldest on the left). The drawing is one image named by a sentence (days, total,
 * busiest day); each bar names its day and count on hover; the figures are also a table under "Show as a table".
 */
export function SignUpsChart({ days }: { days: SignUpDay[] }) {
  const translate = useTranslate();
  const theme = useTheme();
  const titleId = useId();
  const descId = useId();
  const total = days.reduce((n, d) => n + d.count, 0);
  const max = Math.max(1, ...days.map((d) => d.count));
  const busiest = days.reduce<SignUpDay | undefined>(
    (best, d) => (!best || d.count > best.count ? d : best),
    undefined,
  );
  const first = days[0];
  const last = days.at(-1);
  const step = WIDTH / Math.max(1, days.length);
  const summary = translate('console.dashboard.chart.summary', {
    smart_count: total,
    days: days.length,
    from: first ? dayLabel(first.day) : '',
    to: last ? dayLabel(last.day) : '',
    busiest: busiest && busiest.count > 0 ? dayLabel(busiest.day) : '-',
    most: busiest?.count ?? 0,
  });

  return (
    <Box component="figure" sx={{ m: 0 }} data-testid="signups-chart">
      <Typography variant="subtitle1" component="h2" id={titleId}>
        {translate('console.dashboard.chart.title', { days: days.length })}
      </Typography>
      <Typography variant="body2" color="text.secondary" id={descId}>
        {summary}
      </Typography>
      <Box sx={{ display: 'flex', alignItems: 'stretch', gap: 1, mt: 1 }}>
        <Box
          aria-hidden
          sx={{
            display: 'flex',
            flexDirection: 'column',
            justifyContent: 'space-between',
            fontSize: 12,
            color: 'text.secondary',
            textAlign: 'right',
            minWidth: '2ch',
          }}
        >
          <span>{max}</span>
          <span>0</span>
        </Box>
        <Box
          component="svg"
          role="img"
          aria-labelledby={`${titleId} ${descId}`}
          viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
          preserveAspectRatio="none"
          sx={{ width: '100%', height: HEIGHT, display: 'block', borderBottom: 1, borderColor: 'divider' }}
        >
          {days.map((d, i) => {
            const height = (d.count / max) * (HEIGHT - 4);
            return (
              <rect
                key={d.day}
                x={i * step + GAP / 2}
                y={HEIGHT - height}
                width={Math.max(1, step - GAP)}
                height={height}
                fill={theme.palette.primary.main}
                data-day={d.day}
                data-count={d.count}
              >
                <title>{`${dayLabel(d.day)}: ${d.count}`}</title>
              </rect>
            );
          })}
        </Box>
      </Box>
      <Box
        aria-hidden
        sx={{ display: 'flex', justifyContent: 'space-between', fontSize: 12, color: 'text.secondary', pl: 4 }}
      >
        <span>{first ? dayLabel(first.day) : ''}</span>
        <span>{last ? dayLabel(last.day) : ''}</span>
      </Box>
      <Box component="details" sx={{ mt: 1 }}>
        <Box component="summary" sx={{ cursor: 'pointer', typography: 'body2' }}>
          {translate('console.dashboard.chart.as_table')}
        </Box>
        <Table size="small" data-testid="signups-table">
          <TableHead>
            <TableRow>
              <TableCell>{translate('console.dashboard.chart.day')}</TableCell>
              <TableCell align="right">{translate('console.dashboard.chart.count')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {days.map((d) => (
              <TableRow key={d.day} data-day={d.day}>
                <TableCell>{dayLabel(d.day)}</TableCell>
                <TableCell align="right">{d.count}</TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </Box>
    </Box>
  );
}
