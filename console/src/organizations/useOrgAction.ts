import { useCanAccess, useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider, FullOrganization } from '../providers/dataProvider';

/** What every organization action needs: the organization, the named methods, i18n, and whether the caller may act. */
export function useOrgAction() {
  const record = useRecordContext<FullOrganization>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  // A role that may read organizations but not manage them sees no action buttons (the API would refuse anyway).
  const { canAccess: canManage = false } = useCanAccess({ resource: 'organizations', action: 'manage' });
  return { record, dataProvider, translate, canManage };
}

/** A member's display name: the user's name, else their email. */
export const memberName = (m: { user?: { name: string; email: string } }) => m.user?.name || m.user?.email || '';

/** A member's email, which names them in dialogs and notifications (unique, unlike a name). */
export const memberEmail = (m: { userId: string; user?: { email: string } }) => m.user?.email || m.userId;
