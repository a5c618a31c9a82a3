import type { AdminPasskey, User } from '../providers/dataProvider';

/** What a user holds as second factors, from the user answer (docs/two-factor.md "For operators"). */
export interface SecondFactors {
  /** A confirmed authenticator app (TOTP), with its backup codes and trusted devices. */
  app: boolean;
  /** How many passkeys they have. */
  passkeys: number;
}

export const secondFactorsOf = (user: Pick<User, 'twoFactorEnabled' | 'passkeyCount'>): SecondFactors => ({
  app: user.twoFactorEnabled,
  passkeys: Math.max(0, user.passkeyCount ?? 0),
});

/**
 * Whether the user has a second factor, as the service counts one for its policies (its `hasSecondFactor`): a
 * confirmed app or a passkey. admin/reset-two-factor removes either, so the Reset action is offered for either.
 */
export const hasSecondFactor = (factors: SecondFactors): boolean => factors.app || factors.passkeys > 0;

/**
 * The Reset confirmation: an i18n key naming what goes (the app with its backup codes and trusted devices, the
 * passkeys, or both) and its parameters (`smart_count`: the passkeys, for the plural). Null when there is nothing to
 * reset.
 */
export function resetConfirmation(
  factors: SecondFactors,
  email: string,
): { key: string; params: Record<string, string | number> } | null {
  if (!hasSecondFactor(factors)) return null;
  const which = factors.app ? (factors.passkeys > 0 ? 'app_and_passkeys' : 'app') : 'passkeys';
  return {
    key: `resources.users.second_factor.reset_confirm.${which}`,
    params: { email, smart_count: factors.passkeys },
  };
}

/** A passkey's kind as the list shows it: synced across the person's devices, or kept on one device (i18n keys). */
export function passkeyKind(passkey: Pick<AdminPasskey, 'deviceType'>): string {
  switch (passkey.deviceType) {
    case 'multiDevice':
      return 'resources.users.second_factor.kinds.synced';
    case 'singleDevice':
      return 'resources.users.second_factor.kinds.single_device';
    default:
      return 'resources.users.second_factor.kinds.unknown';
  }
}
