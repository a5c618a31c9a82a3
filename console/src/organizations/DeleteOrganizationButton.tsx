import Delete from '@mui/icons-material/Delete';
import { useQueryClient } from '@tanstack/react-query';
import { useRedirect } from 'react-admin';
import { PromptButton } from '../common/PromptButton';
import { useOrgAction } from './useOrgAction';

/**
 * admin/organization/delete, confirmed by typing the organization's slug (Confirm stays disabled until it
 * matches); then back to the list, which reads the organizations again.
 */
export function DeleteOrganizationButton() {
  const { record, dataProvider, translate, canManage } = useOrgAction();
  const redirect = useRedirect();
  const queryClient = useQueryClient();
  if (!record || !canManage) return null;
  const { name, slug } = record;
  const leave = async () => {
    // Lists read again when shown (nothing is fetched now: the deleted organization's page is still mounted).
    await queryClient.invalidateQueries({ queryKey: ['organizations', 'getList'], refetchType: 'none' });
    redirect('list', 'organizations');
  };
  return (
    <PromptButton
      label="resources.organizations.delete.button"
      title={translate('resources.organizations.delete.title', { name })}
      message={translate('resources.organizations.delete.confirm', { name, slug })}
      icon={<Delete />}
      color="error"
      fields={[
        {
          name: 'typed',
          label: translate('resources.organizations.delete.type_slug', { slug }),
          required: true,
          autoComplete: 'off',
          validate: (typed) =>
            typed.trim() === slug ? undefined : translate('resources.organizations.delete.mismatch', { slug }),
          testId: 'delete-org-confirm',
        },
      ]}
      onConfirm={() => dataProvider.deleteOrganization(record.id)}
      success={() => translate('resources.organizations.delete.done', { name })}
      after={leave}
    />
  );
}
