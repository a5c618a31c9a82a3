import { useQuery } from '@tanstack/react-query';
import { useDataProvider } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';

/** The role list's query (usePageRefresh leaves it alone). */
export const ROLES_QUERY_KEY = ['roles'] as const;

/**
 * The configured role names (admin/list-roles) the role pickers offer: user roles and organization roles. While
 * the list loads both are empty (a picker then offers the current value only); when it cannot be read (or
 * organizations are off, for organization roles) they are undefined and the role fields fall back to text.
 */
export function useRoles(): { userRoles?: string[]; organizationRoles?: string[]; isPending: boolean } {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const { data, isError, isPending } = useQuery({
    queryKey: ROLES_QUERY_KEY,
    queryFn: () => dataProvider.listRoles(),
    // Roles come from the service's configuration: they change with a restart, not while a page is open.
    staleTime: 5 * 60_000,
    retry: 1,
  });
  if (isError) return { isPending: false };
  if (!data) return { userRoles: [], organizationRoles: [], isPending };
  return {
    userRoles: data.roles.map((role) => role.name),
    organizationRoles: data.organizationRoles?.map((role) => role.name),
    isPending,
  };
}
