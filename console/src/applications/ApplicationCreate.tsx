import { useState } from 'react';
import { Create, SimpleForm, useDataProvider, useNotify, useRedirect, useTranslate } from 'react-admin';
import type { ConsoleDataProvider } from '../providers/dataProvider';
import { SecretDialog, type ShownSecret } from '../webhooks/SecretDialog';
import { ApplicationInputs, SaveToolbar } from './ApplicationInputs';
import { type ApplicationValues, createBody, NEW_APPLICATION } from './applicationForm';
import { useRefusalInApplicationForm } from './useRefusalInApplicationForm';

/**
 * admin/create-oauth-client. A confidential application's secret, which the API answers this once, shows in a dialog
 * with a copy button; it is held in this page's state only until the dialog closes (never in react-admin's cache),
 * then the application's page opens. A public application has none: its page opens at once.
 */
export function ApplicationCreate() {
  const dataProvider = useDataProvider<ConsoleDataProvider>();
  const translate = useTranslate();
  const notify = useNotify();
  const redirect = useRedirect();
  const refused = useRefusalInApplicationForm();
  const [shown, setShown] = useState<(ShownSecret & { id: string }) | null>(null);
  const save = async (values: Record<string, unknown>) => {
    const typed = values as unknown as ApplicationValues;
    try {
      const { client, secret } = await dataProvider.createApplication(createBody(typed));
      notify(translate('resources.applications.create.done', { name: client.name }), { type: 'success' });
      if (secret) setShown({ id: client.clientId, url: client.name, secret });
      else redirect('show', 'applications', client.clientId);
      return undefined;
    } catch (error) {
      return refused(error, typed);
    }
  };
  return (
    <>
      <Create title="resources.applications.create.title">
        <SimpleForm
          defaultValues={NEW_APPLICATION}
          onSubmit={save}
          disableInvalidFormNotification
          toolbar={<SaveToolbar />}
        >
          <ApplicationInputs creating />
        </SimpleForm>
      </Create>
      <SecretDialog
        texts="resources.applications.secret"
        testId="application-secret"
        shown={shown}
        onClose={() => {
          const id = shown?.id;
          setShown(null);
          if (id) redirect('show', 'applications', id);
        }}
      />
    </>
  );
}
