import type { MailKind } from '../jobs';
import { changeEmail } from './change-email';
import { changeEmailOtp } from './change-email-otp';
import { deleteAccount } from './delete-account';
import { emailOtp } from './email-otp';
import { invitation } from './invitation';
import { magicLink } from './magic-link';
import { passkeyAdded, passkeyRemoved } from './passkey';
import { resetPassword } from './reset-password';
import { backupCodesRegenerated, twoFactorDisabled, twoFactorEnabled, twoFactorReset } from './two-factor';
import type { Translations } from './types';
import { verifyEmail } from './verify-email';

/** One template per kind of job, each with its texts in every language (docs/mail.md). */
export const TEMPLATES: Readonly<Record<MailKind, Translations>> = {
  'reset-password': resetPassword,
  'verify-email': verifyEmail,
  'change-email': changeEmail,
  'delete-account': deleteAccount,
  invitation,
  'two-factor-enabled': twoFactorEnabled,
  'two-factor-disabled': twoFactorDisabled,
  'two-factor-reset': twoFactorReset,
  'backup-codes-regenerated': backupCodesRegenerated,
  'passkey-added': passkeyAdded,
  'passkey-removed': passkeyRemoved,
  'magic-link': magicLink,
  'email-otp': emailOtp,
  'change-email-otp': changeEmailOtp,
};

export { COMMON, LANGUAGE_TAGS } from './common';
export { roleLabel } from './invitation';
export type { Copy, Translations } from './types';
