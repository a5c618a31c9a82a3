import { AppBar as RaAppBar, UserMenu, useGetIdentity } from 'react-admin';

/**
 * react-admin's app bar. On a wide window its user menu button shows the signed-in name: the button is named by
 * that same text (a screen reader announces what is on screen), not by a generic "Profile".
 */
export function AppBar() {
  const { identity } = useGetIdentity();
  return <RaAppBar userMenu={<UserMenu label={identity?.fullName || 'ra.auth.user_menu'} />} />;
}
