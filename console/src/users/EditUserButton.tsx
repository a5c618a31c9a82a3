import Edit from '@mui/icons-material/Edit';
import type { paths } from '../api/schema';
import { PromptButton } from '../common/PromptButton';
import type { PromptValues } from '../common/PromptDialog';
import { useRoles } from '../common/useRoles';
import { userRoleField } from './userRoleField';
import { useUserAction } from './useUserAction';

type Language = NonNullable<
  paths['/admin/update-user']['post']['requestBody']['content']['application/json']['data']['language']
>;
/** The mail languages update-user takes (openapi.yaml's enum), in the order the choice lists them. */
const LANGUAGES: Language[] = ['ENG', 'FRA', 'GERMAN', 'POL', 'RUS', 'SPA', 'TURKEY', 'UKR'];

/**
 * update-user: what its `data` takes (name, image, mail language, role), opening with the user's current values
 * every time. Only what changed is sent (the dataProvider's update compares with the record); a language once set
 * cannot be emptied (the API takes none), so the choice offers the languages only. A refusal shows in the dialog,
 * under the field it is about (a name or an image address too long, a role the service does not know).
 */
export function EditUserButton() {
  const { record, dataProvider, translate, email } = useUserAction();
  const { userRoles } = useRoles();
  if (!record) return null;
  // A stored language the list lacks is offered too, so the dialog still opens showing it.
  const languages = record.language && !LANGUAGES.includes(record.language as Language) ? [record.language] : [];
  const save = ({ name, image, language, role }: PromptValues) => {
    const data = {
      name: name.trim(),
      image: image.trim() || null,
      role: role.trim(),
      ...(language ? { language } : {}),
    };
    return dataProvider.update('users', { id: record.id, data, previousData: record });
  };
  return (
    <PromptButton
      label="resources.users.actions.edit"
      title={translate('resources.users.actions.edit_title', { email })}
      icon={<Edit />}
      fields={[
        { name: 'name', label: translate('resources.users.fields.name'), required: true, testId: 'edit-name' },
        {
          name: 'image',
          label: translate('resources.users.fields.image'),
          helperText: translate('resources.users.actions.image_help'),
          testId: 'edit-image',
        },
        {
          name: 'language',
          label: translate('resources.users.fields.language'),
          helperText: translate('resources.users.actions.language_help'),
          options: [
            ...LANGUAGES.map((code) => ({ value: code, label: translate(`resources.users.languages.${code}`) })),
            ...languages.map((code) => ({ value: code, label: code })),
          ],
          testId: 'edit-language',
        },
        userRoleField(translate, userRoles, record.role, 'edit-role'),
      ]}
      initial={{ name: record.name, image: record.image ?? '', language: record.language ?? '', role: record.role }}
      onConfirm={save}
      success={() => translate('resources.users.actions.edited', { email })}
      errorsInForm
    />
  );
}
