import { useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider, FullOrganization } from '../providers/dataProvider';

/** What every organization action needs: the organization (members, invitations, teams), the named methods, i18n. */
export function useOrgAction() {
  const record = useRecordContext<FullOrganization>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  return { record, dataProvider, translate };
}

/** A member's display name: the user's name, else their email. */
export const memberName = (m: { user?: { name: string; email: string } }) => m.user?.name || m.user?.email || '';
