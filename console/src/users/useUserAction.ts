import { useDataProvider, useRecordContext, useTranslate } from 'react-admin';
import type { ConsoleDataProvider, User } from '../providers/dataProvider';

/** What every user action button needs: the record, the named dataProvider methods, the translator and a label. */
export function useUserAction() {
  const record = useRecordContext<User>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const name = record ? record.name || record.email : '';
  return { record, dataProvider, translate, name };
}
