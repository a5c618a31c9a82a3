import ExpandLess from '@mui/icons-material/ExpandLess';
import ExpandMore from '@mui/icons-material/ExpandMore';
import {
  Box,
  Button,
  IconButton,
  Link,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  type Theme,
  Typography,
  useMediaQuery,
} from '@mui/material';
import { Fragment, useState } from 'react';
import { useTranslate } from 'react-admin';
import { ScrollX } from '../layout/ScrollX';
import { wideOnly } from '../layout/useNarrow';
import { type AuditEvent, actorLabel, targetLink, typeSegments } from './auditEvents';
import type { useEventFeed } from './useEventFeed';

const href = (path: string) => `#${path}`;

/** In a wide window the type and the actor's address keep to one line; narrower, they wrap at their separators. */
const oneLineWhenWide = { whiteSpace: { md: 'nowrap' } } as const;
/** Chromium breaks at a <wbr> even under `white-space: nowrap`: the opportunities are written only when narrower. */
const useWrapping = () => useMediaQuery((theme: Theme) => theme.breakpoints.down('md'));

/** Ids have no words: they may break anywhere. */
const breakAnywhere = { overflowWrap: 'anywhere' } as const;

/**
 * Text that wraps only after its separators (typeSegments): a line-break opportunity after each piece, none inside
 * one, so `admin.user.` / `role_set`, never `admin.us` / `er.role_se` / `t`; a piece wider than the column is cut
 * only as a last resort (the table scrolls sideways first).
 */
function Pieces({ text, separators, testId }: { text: string; separators: '._' | '@.'; testId?: string }) {
  const wrapping = useWrapping();
  return (
    <span data-testid={testId} style={{ wordBreak: 'normal', overflowWrap: 'break-word' }}>
      {typeSegments(text, separators).map((piece, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed string, never reordered
        <Fragment key={i}>
          {piece}
          {wrapping && <wbr />}
        </Fragment>
      ))}
    </span>
  );
}

function Actor({ event }: { event: AuditEvent }) {
  const translate = useTranslate();
  const label = actorLabel(event.actor);
  const { impersonatorId, impersonatorEmail } = event.actor;
  return (
    <>
      {label.kind === 'user' ? (
        <>
          <Link href={href(`/users/${encodeURIComponent(label.id)}/show`)} sx={breakAnywhere}>
            {label.email ? <Pieces text={label.email} separators="@." /> : label.id}
          </Link>
          {label.name && (
            <Typography variant="body2" component="div" color="text.secondary" data-testid="actor-name">
              {label.name}
            </Typography>
          )}
        </>
      ) : (
        <span style={breakAnywhere}>{label.text}</span>
      )}
      {impersonatorId && (
        <Typography variant="body2" component="div">
          {translate('resources.events.impersonated_by')}{' '}
          <Link href={href(`/users/${encodeURIComponent(impersonatorId)}/show`)} sx={breakAnywhere}>
            {impersonatorEmail ? <Pieces text={impersonatorEmail} separators="@." /> : impersonatorId}
          </Link>
        </Typography>
      )}
    </>
  );
}

function Target({ target }: { target: AuditEvent['target'] }) {
  if (!target) return null;
  const link = targetLink(target);
  return (
    <>
      {target.type}{' '}
      {link ? <Link href={href(link)}>{target.id}</Link> : <span style={{ wordBreak: 'break-all' }}>{target.id}</span>}
    </>
  );
}

function Details({ event }: { event: AuditEvent }) {
  const translate = useTranslate();
  return (
    <Box data-testid="event-details" sx={{ py: 1 }}>
      <Typography variant="body2">
        {translate('resources.events.fields.id')}: {event.id}
      </Typography>
      <Typography variant="body2">
        {translate('resources.events.fields.userAgent')}: {event.userAgent ?? '-'}
      </Typography>
      <Typography variant="body2">
        {translate('resources.events.fields.requestId')}: {event.requestId ?? '-'}
      </Typography>
      <Typography variant="body2" sx={{ display: { sm: 'none' } }}>
        {translate('resources.events.fields.organizationId')}: {event.organizationId ?? '-'}
      </Typography>
      <Typography variant="body2" sx={{ display: { sm: 'none' } }}>
        {translate('resources.events.fields.ipAddress')}: {event.ipAddress ?? '-'}
      </Typography>
      <Typography variant="body2">{translate('resources.events.fields.details')}:</Typography>
      <pre style={{ margin: 0, whiteSpace: 'pre-wrap', wordBreak: 'break-all' }}>
        {JSON.stringify(event.details, null, 2)}
      </pre>
    </Box>
  );
}

/** Events newest first; each row opens to its details JSON, user agent and request id. "Load more" pages on. */
export function EventTable({ feed, testId = 'events' }: { feed: ReturnType<typeof useEventFeed>; testId?: string }) {
  const translate = useTranslate();
  const [open, setOpen] = useState<Set<string>>(new Set());
  if (feed.isPending) return <Typography>{translate('ra.page.loading')}</Typography>;
  if (feed.error) return <Typography color="error">{feed.error.message}</Typography>;
  if (feed.events.length === 0)
    return <Typography data-testid={`${testId}-empty`}>{translate('resources.events.empty')}</Typography>;
  const toggle = (id: string) =>
    setOpen((before) => {
      const after = new Set(before);
      if (!after.delete(id)) after.add(id);
      return after;
    });
  return (
    <>
      <ScrollX>
        <Table size="small" data-testid={testId}>
          <TableHead>
            <TableRow>
              <TableCell>
                <span
                  className="visually-hidden"
                  style={{ position: 'absolute', width: 1, height: 1, overflow: 'hidden', clip: 'rect(0 0 0 0)' }}
                >
                  {translate('resources.events.details')}
                </span>
              </TableCell>
              <TableCell>{translate('resources.events.fields.occurredAt')}</TableCell>
              <TableCell>{translate('resources.events.fields.type')}</TableCell>
              <TableCell>{translate('resources.events.fields.actor')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.events.fields.target')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.events.fields.organizationId')}</TableCell>
              <TableCell sx={wideOnly}>{translate('resources.events.fields.ipAddress')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {feed.events.map((event) => {
              const shown = open.has(event.id);
              return (
                <Fragment key={event.id}>
                  <TableRow data-testid="event-row" data-event-id={event.id} data-event-type={event.type}>
                    <TableCell padding="checkbox">
                      <IconButton
                        size="small"
                        aria-expanded={shown}
                        aria-label={translate(shown ? 'resources.events.hide' : 'resources.events.show', {
                          type: event.type,
                        })}
                        onClick={() => toggle(event.id)}
                      >
                        {shown ? <ExpandLess /> : <ExpandMore />}
                      </IconButton>
                    </TableCell>
                    <TableCell>{new Date(event.occurredAt).toLocaleString()}</TableCell>
                    <TableCell sx={oneLineWhenWide}>
                      <Pieces text={event.type} separators="._" testId="event-type" />
                    </TableCell>
                    <TableCell sx={oneLineWhenWide}>
                      <Actor event={event} />
                    </TableCell>
                    <TableCell sx={wideOnly}>
                      <Target target={event.target} />
                    </TableCell>
                    <TableCell sx={wideOnly}>
                      {event.organizationId ? (
                        <Link href={href(`/organizations/${encodeURIComponent(event.organizationId)}/show`)}>
                          {event.organizationId}
                        </Link>
                      ) : (
                        ''
                      )}
                    </TableCell>
                    <TableCell sx={wideOnly}>{event.ipAddress ?? ''}</TableCell>
                  </TableRow>
                  {shown && (
                    <TableRow>
                      <TableCell colSpan={7}>
                        <Box sx={{ display: { sm: 'none' } }}>
                          <Target target={event.target} />
                        </Box>
                        <Details event={event} />
                      </TableCell>
                    </TableRow>
                  )}
                </Fragment>
              );
            })}
          </TableBody>
        </Table>
      </ScrollX>
      {feed.hasMore && (
        <Button onClick={() => feed.loadMore()} disabled={feed.loadingMore} sx={{ mt: 1 }}>
          {translate('resources.events.load_more')}
        </Button>
      )}
    </>
  );
}
