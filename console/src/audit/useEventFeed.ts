import { useInfiniteQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { type AuditEvent, type AuditFilter, eventsQuery, mergeFeeds } from './auditEvents';

type Cursors = (string | null | undefined)[];

/**
 * The events of one or more filters (admin/list-events, one call per filter and page), merged newest first.
 * `loadMore` fetches the next page of every filter that has one, with the cursor the API gave: no total, no
 * page numbers.
 */
export function useEventFeed(key: unknown[], filters: AuditFilter[], enabled = true) {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const query = useInfiniteQuery({
    queryKey: ['events', ...key, filters],
    enabled,
    initialPageParam: filters.map(() => undefined) as Cursors,
    queryFn: async ({ pageParam }) =>
      Promise.all(
        filters.map((filter, i) =>
          // A filter whose pages are done (null) fetches nothing more.
          pageParam[i] === null
            ? { events: [] as AuditEvent[], nextCursor: null }
            : dataProvider.listEvents(eventsQuery(filter, pageParam[i])),
        ),
      ),
    getNextPageParam: (last) =>
      last.some((page) => page.nextCursor) ? (last.map((page) => page.nextCursor) as Cursors) : undefined,
  });
  const pages = query.data?.pages ?? [];
  const last = pages[pages.length - 1];
  const events = mergeFeeds(
    filters.map((_, i) => ({
      events: pages.flatMap((page) => page[i].events),
      more: !!last?.[i].nextCursor,
    })),
  );
  return {
    events,
    isPending: query.isPending,
    error: query.error,
    hasMore: query.hasNextPage,
    loadingMore: query.isFetchingNextPage,
    loadMore: () => query.fetchNextPage(),
    refetch: () => query.refetch(),
  };
}
