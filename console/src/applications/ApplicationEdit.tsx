import { useQueryClient } from '@tanstack/react-query';
import { Edit, SimpleForm, useDataProvider, useNotify, useRecordContext, useRedirect, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { ApplicationInputs, SaveToolbar } from './ApplicationInputs';
import { type Application, type ApplicationValues, applicationChanges, applicationValues } from './applicationForm';
import { useRefusalInApplicationForm } from './useRefusalInApplicationForm';

/** The form, opened with the stored values every time (URI lists as rows); only what changed is sent. */
function ApplicationEditForm() {
  const record = useRecordContext<Application>();
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const queryClient = useQueryClient();
  const refused = useRefusalInApplicationForm();
  if (!record) return null;
  const save = async (values: Record<string, unknown>) => {
    const typed = values as unknown as ApplicationValues;
    try {
      const saved = await dataProvider.updateApplication(record.id, applicationChanges(typed, record));
      await queryClient.invalidateQueries({ queryKey: ['applications'] });
      notify(translate('resources.applications.edit.done', { name: saved.name }), { type: 'success' });
      redirect('show', 'applications', record.id);
      return undefined;
    } catch (error) {
      return refused(error, typed);
    }
  };
  return (
    <SimpleForm
      record={{ id: record.id, ...applicationValues(record) }}
      onSubmit={save}
      disableInvalidFormNotification
      toolbar={<SaveToolbar />}
    >
      <ApplicationInputs creating={false} />
    </SimpleForm>
  );
}

/** admin/update-oauth-client: every field but the type (set once, at creation). */
export function ApplicationEdit() {
  return (
    <Edit mutationMode="pessimistic" title={<EditTitle />} actions={false}>
      <ApplicationEditForm />
    </Edit>
  );
}

function EditTitle() {
  const record = useRecordContext<Application>();
  const translate = useTranslate();
  return <span>{translate('resources.applications.edit.title', { name: record?.name ?? '' })}</span>;
}
