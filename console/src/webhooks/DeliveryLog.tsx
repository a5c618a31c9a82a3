import Refresh from '@mui/icons-material/Refresh';
import Replay from '@mui/icons-material/Replay';
import Send from '@mui/icons-material/Send';
import { Box, Button, IconButton, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslate } from 'react-admin';
import { PromptDialog } from '../common/PromptDialog';
import { ScrollX } from '../layout/ScrollX';
import { useNarrow, wideOnly } from '../layout/useNarrow';
import { useWebhookAction } from './useWebhookAction';
import { type WebhookDelivery, watchSettled } from './webhookForm';

/** How long the log asks again after a send or a redelivery, waiting for its attempt (the worker logs it). */
const WATCH_MS = 60_000;
const WATCH_EVERY_MS = 1_000;
export const DELIVERY_PAGE = 50;

/**
 * The endpoint's delivery log (admin/list-webhook-deliveries): every attempt, newest first, 50 a page with the
 * API's cursor ("Load more"). "Send a test event" and each row's "Redeliver" (an event's attempts; a test message
 * has no event to send again) ask first; the log then asks again every second until the new attempt shows (at most
 * a minute), since the worker makes and logs it after the call answers.
 */
export function DeliveryLog() {
  const { record, dataProvider, translate, canUpdate } = useWebhookAction();
  const narrow = useNarrow();
  const id = record?.id ?? '';
  const [watch, setWatch] = useState<{ newest: string | null; until: number } | null>(null);
  const [testing, setTesting] = useState(false);
  const [again, setAgain] = useState<WebhookDelivery | null>(null);
  const query = useInfiniteQuery({
    queryKey: ['webhooks', 'deliveries', id],
    enabled: !!id,
    initialPageParam: null as string | null,
    queryFn: ({ pageParam }) => dataProvider.listWebhookDeliveries(id, pageParam, DELIVERY_PAGE),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    refetchInterval: () => (watch ? WATCH_EVERY_MS : false),
  });
  const rows = query.data?.pages.flatMap((page) => page.deliveries) ?? [];
  const newest = rows[0]?.id ?? null;
  const settled = watchSettled(watch, newest, Date.now());
  useEffect(() => {
    if (watch && settled) setWatch(null);
  }, [watch, settled]);
  // A watch ends by itself after WATCH_MS even when nothing new is answered (no render would notice it).
  useEffect(() => {
    if (!watch) return;
    const timer = setTimeout(() => setWatch(null), Math.max(0, watch.until - Date.now()));
    return () => clearTimeout(timer);
  }, [watch]);
  if (!record) return null;
  const startWatch = async () => {
    setWatch({ newest, until: Date.now() + WATCH_MS });
    await query.refetch();
  };
  const { url } = record;

  return (
    <Box component="section" aria-labelledby="delivery-log-title" sx={{ mt: 2 }}>
      <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 1, mb: 1 }}>
        <Typography variant="h6" component="h2" id="delivery-log-title" sx={{ flexGrow: 1 }}>
          {translate('resources.webhooks.log.title')}
        </Typography>
        {canUpdate && (
          <Button size="small" startIcon={<Send />} onClick={() => setTesting(true)}>
            {translate('resources.webhooks.test.button')}
          </Button>
        )}
        <Button size="small" startIcon={<Refresh />} onClick={() => query.refetch()} disabled={query.isFetching}>
          {translate('resources.webhooks.log.refresh')}
        </Button>
      </Box>
      <Typography role="status" variant="body2" color="text.secondary" data-testid="delivery-log-waiting">
        {watch ? translate('resources.webhooks.log.waiting') : ''}
      </Typography>
      {query.isPending ? (
        <Typography>{translate('ra.page.loading')}</Typography>
      ) : query.error ? (
        <Typography color="error">{query.error.message}</Typography>
      ) : rows.length === 0 ? (
        <Typography data-testid="delivery-log-empty" sx={{ py: 1 }}>
          {translate('resources.webhooks.log.empty')}
        </Typography>
      ) : (
        <ScrollX>
          <Table size="small" data-testid="delivery-log">
            <TableHead>
              <TableRow>
                <TableCell>{translate('resources.webhooks.log.attemptedAt')}</TableCell>
                <TableCell>{translate('resources.webhooks.log.status')}</TableCell>
                <TableCell sx={wideOnly}>{translate('resources.webhooks.log.attempt')}</TableCell>
                <TableCell sx={wideOnly}>{translate('resources.webhooks.log.responseCode')}</TableCell>
                <TableCell sx={wideOnly}>{translate('resources.webhooks.log.duration')}</TableCell>
                <TableCell sx={wideOnly}>{translate('resources.webhooks.log.error')}</TableCell>
                {canUpdate && <TableCell>{translate('resources.webhooks.log.actions')}</TableCell>}
              </TableRow>
            </TableHead>
            <TableBody>
              {rows.map((d) => (
                <TableRow
                  key={d.id}
                  data-testid="delivery-row"
                  data-delivery-id={d.id}
                  data-webhook-id={d.webhookId}
                  data-event-id={d.eventId ?? ''}
                  data-status={d.status}
                >
                  <TableCell>
                    {new Date(d.attemptedAt).toLocaleString()}
                    <Typography variant="body2" component="div" sx={{ wordBreak: 'break-all' }}>
                      {d.eventType}
                    </Typography>
                  </TableCell>
                  <TableCell>
                    <Typography
                      variant="body2"
                      component="span"
                      sx={{ color: d.status === 'succeeded' ? 'success.dark' : 'error.main', fontWeight: 'bold' }}
                    >
                      {translate(`resources.webhooks.log.${d.status}`)}
                    </Typography>
                    {/* A narrow window has no attempt and response columns: they read here. */}
                    <Typography variant="body2" component="div" sx={{ display: { sm: 'none' } }}>
                      {translate('resources.webhooks.log.narrow', {
                        attempt: d.attempt,
                        code: d.responseCode ?? translate('resources.webhooks.log.no_response'),
                      })}
                    </Typography>
                  </TableCell>
                  <TableCell sx={wideOnly}>{d.attempt}</TableCell>
                  <TableCell sx={wideOnly}>
                    {d.responseCode ?? translate('resources.webhooks.log.no_response')}
                  </TableCell>
                  <TableCell sx={wideOnly}>{translate('resources.webhooks.log.ms', { ms: d.durationMs })}</TableCell>
                  <TableCell sx={{ ...wideOnly, wordBreak: 'break-word' }}>{d.error ?? ''}</TableCell>
                  {canUpdate && (
                    <TableCell>
                      {d.eventId && <RedeliverButton delivery={d} narrow={narrow} onClick={() => setAgain(d)} />}
                    </TableCell>
                  )}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollX>
      )}
      {query.hasNextPage && (
        <Button onClick={() => query.fetchNextPage()} disabled={query.isFetchingNextPage} sx={{ mt: 1 }}>
          {translate('resources.webhooks.log.load_more')}
        </Button>
      )}
      <PromptDialog
        open={testing}
        onClose={() => setTesting(false)}
        title={translate('resources.webhooks.test.title', { url })}
        message={translate('resources.webhooks.test.confirm', { url })}
        errorsInForm
        onConfirm={() => dataProvider.sendTestWebhook(record.id)}
        success={() => translate('resources.webhooks.test.done', { url })}
        after={startWatch}
      />
      <PromptDialog
        open={!!again}
        onClose={() => setAgain(null)}
        title={translate('resources.webhooks.redeliver.title', { type: again?.eventType ?? '' })}
        message={translate('resources.webhooks.redeliver.confirm', {
          type: again?.eventType ?? '',
          url,
          webhookId: again?.webhookId ?? '',
        })}
        errorsInForm
        onConfirm={() => dataProvider.redeliverWebhook(record.id, again?.eventId ?? '')}
        success={() => translate('resources.webhooks.redeliver.done', { type: again?.eventType ?? '', url })}
        after={startWatch}
      />
    </Box>
  );
}

/** Redeliver on a row: a labelled button, an icon alone in a narrow window; both named by the event and attempt. */
function RedeliverButton(props: { delivery: WebhookDelivery; narrow: boolean; onClick: () => void }) {
  const { delivery, narrow, onClick } = props;
  const translate = useTranslate();
  const label = translate('resources.webhooks.redeliver.label', {
    type: delivery.eventType,
    attempt: delivery.attempt,
  });
  if (narrow)
    return (
      <IconButton size="small" color="primary" aria-label={label} onClick={onClick}>
        <Replay />
      </IconButton>
    );
  return (
    <Button size="small" startIcon={<Replay />} aria-label={label} onClick={onClick}>
      {translate('resources.webhooks.redeliver.button')}
    </Button>
  );
}
