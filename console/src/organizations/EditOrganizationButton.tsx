import Edit from '@mui/icons-material/Edit';
import { PromptButton } from '../common/PromptButton';
import { logoProblem, metadataProblem, metadataText, organizationChanges, slugProblem } from './organizationForm';
import { useOrgAction } from './useOrgAction';

/**
 * admin/organization/update: name, slug, logo and metadata (JSON, checked as it is typed), opening with the stored
 * values every time; only what changed is sent. A refusal shows in the dialog: a slug another organization holds
 * under the slug field.
 */
export function EditOrganizationButton() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  if (!record || !canManage) return null;
  const t = (key: string) => translate(`resources.organizations.${key}`);
  return (
    <PromptButton
      label="resources.organizations.edit.button"
      title={translate('resources.organizations.edit.title', { name: record.name })}
      icon={<Edit />}
      fields={[
        { name: 'name', label: t('fields.name'), required: true, testId: 'org-name' },
        {
          name: 'slug',
          label: t('fields.slug'),
          required: true,
          helperText: t('slug_help'),
          validate: (v) => slugProblem(v, translate),
          testId: 'org-slug',
        },
        {
          name: 'logo',
          label: t('fields.logo'),
          helperText: t('edit.logo_help'),
          validate: (v) => logoProblem(v, translate),
          testId: 'org-logo',
        },
        {
          name: 'metadata',
          label: t('fields.metadata'),
          helperText: t('edit.metadata_help'),
          multiline: true,
          validate: (v) => metadataProblem(v, translate),
          testId: 'org-metadata',
        },
      ]}
      initial={{
        name: record.name,
        slug: record.slug,
        logo: record.logo ?? '',
        metadata: metadataText(record.metadata),
      }}
      onConfirm={(values) =>
        dataProvider.updateOrganization(
          record.id,
          organizationChanges(
            { name: values.name, slug: values.slug, logo: values.logo, metadata: values.metadata },
            record,
          ),
        )
      }
      success={({ name }) => translate('resources.organizations.edit.saved', { name: name.trim() })}
      errorsInForm
    />
  );
}
