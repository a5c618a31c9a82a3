import { TopToolbar } from 'react-admin';
import { DeleteOrganizationButton } from './DeleteOrganizationButton';
import { EditOrganizationButton } from './EditOrganizationButton';

/** The organization's own actions; they wrap onto more rows in a narrow window. */
export function OrganizationShowActions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <EditOrganizationButton />
      <DeleteOrganizationButton />
    </TopToolbar>
  );
}
