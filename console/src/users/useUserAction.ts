import { useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider, User } from '../providers/dataProvider';

/**
 * What every user action needs: the record, the named dataProvider methods, the translator, and the user's email,
 * which names them in every dialog and notification (unique, unlike a name).
 */
export function useUserAction() {
  const record = useRecordContext<User>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const email = record?.email ?? '';
  return { record, dataProvider, translate, email };
}
