import { TopToolbar } from 'react-admin';
import { BanButton } from './BanButton';
import { ImpersonateButton } from './ImpersonateButton';
import { RemoveUserButton } from './RemoveUserButton';
import { SetPasswordButton } from './SetPasswordButton';
import { SetRoleButton } from './SetRoleButton';
import { UnbanButton } from './UnbanButton';

export function UserShowActions() {
  return (
    <TopToolbar>
      <SetRoleButton />
      <BanButton />
      <UnbanButton />
      <SetPasswordButton />
      <ImpersonateButton />
      <RemoveUserButton />
    </TopToolbar>
  );
}
