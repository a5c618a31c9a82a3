import { TopToolbar } from 'react-admin';
import { BanButton } from './BanButton';
import { EditUserButton } from './EditUserButton';
import { ImpersonateButton } from './ImpersonateButton';
import { RemoveUserButton } from './RemoveUserButton';
import { ResetTwoFactorButton } from './ResetTwoFactorButton';
import { SendResetPasswordButton } from './SendResetPasswordButton';
import { SendVerificationButton } from './SendVerificationButton';
import { SetPasswordButton } from './SetPasswordButton';
import { SetRoleButton } from './SetRoleButton';
import { UnbanButton } from './UnbanButton';

/** The user's actions; in a narrow window they wrap onto more rows instead of running off the screen. */
export function UserShowActions() {
  return (
    <TopToolbar sx={{ flexWrap: 'wrap' }}>
      <EditUserButton />
      <SetRoleButton />
      <BanButton />
      <UnbanButton />
      <SetPasswordButton />
      <SendResetPasswordButton />
      <ResetTwoFactorButton />
      <SendVerificationButton />
      <ImpersonateButton />
      <RemoveUserButton />
    </TopToolbar>
  );
}
