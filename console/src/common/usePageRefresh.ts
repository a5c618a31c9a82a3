import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ROLES_QUERY_KEY } from './useRoles';

/**
 * react-admin's refresh (every query invalidated, the shown ones fetched again) as a promise that settles once the
 * page has its new data: a dialog awaits it before closing, so opening it again at once shows the new values. The
 * role list is left alone: it changes with the service's configuration only.
 */
export function usePageRefresh(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ predicate: (query) => query.queryKey[0] !== ROLES_QUERY_KEY[0] }),
    [queryClient],
  );
}
