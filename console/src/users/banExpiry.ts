import type { TranslateFunction } from 'react-admin';
import type { PromptField, PromptValues } from '../common/PromptDialog';

/** The ban lengths offered, in seconds; `never` sends no expiry, `until` takes a date and time. */
export const BAN_DURATIONS = { '1h': 3600, '1d': 86_400, '7d': 7 * 86_400, '30d': 30 * 86_400 } as const;
export type BanExpiryChoice = keyof typeof BAN_DURATIONS | 'never' | 'until';
const CHOICES: BanExpiryChoice[] = ['1h', '1d', '7d', '30d', 'never', 'until'];

/** The shortest ban a date and time may give: a minute (the time field has minutes only). */
const MIN_SECONDS = 60;
/** The longest ban-user takes (banExpiresIn, 100 years). */
const MAX_SECONDS = 100 * 365 * 86_400;

/** Why a ban's end cannot be used: the i18n key of the sentence saying so. */
export class BanExpiryError extends Error {}

/**
 * ban-user's `banExpiresIn` for what the dialog holds: a duration in seconds, undefined for a ban without end, or
 * the seconds from now to a local date and time (rounded up to whole seconds). A time not at least a minute ahead,
 * unreadable or too far throws a BanExpiryError naming the problem.
 */
export function banExpiresIn(choice: string, until: string, now: number = Date.now()): number | undefined {
  if (choice === 'never') return undefined;
  if (Object.hasOwn(BAN_DURATIONS, choice)) return BAN_DURATIONS[choice as keyof typeof BAN_DURATIONS];
  if (choice !== 'until') throw new BanExpiryError('resources.users.ban_expiry.pick');
  // "YYYY-MM-DDTHH:mm" without an offset is read as the browser's local time.
  const end = until ? new Date(until).getTime() : Number.NaN;
  if (Number.isNaN(end)) throw new BanExpiryError('resources.users.ban_expiry.invalid');
  const seconds = Math.ceil((end - now) / 1000);
  if (seconds < MIN_SECONDS) throw new BanExpiryError('resources.users.ban_expiry.past');
  if (seconds > MAX_SECONDS) throw new BanExpiryError('resources.users.ban_expiry.too_far');
  return seconds;
}

/** A date and time as a datetime-local input writes it, in the browser's zone (its `min`). */
export function localDateTime(time: number): string {
  const d = new Date(time);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The ban dialog's fields (one user or many): a reason, and an end picked as a length or as a date and time. */
export function banFields(translate: TranslateFunction): PromptField[] {
  return [
    { name: 'reason', label: translate('resources.users.actions.ban_reason'), testId: 'ban-reason' },
    {
      name: 'expiry',
      label: translate('resources.users.ban_expiry.label'),
      options: CHOICES.map((value) => ({ value, label: translate(`resources.users.ban_expiry.${value}`) })),
      required: true,
      testId: 'ban-expires',
    },
    {
      name: 'until',
      label: translate('resources.users.ban_expiry.until_label'),
      type: 'datetime-local',
      required: true,
      shownWhen: (values) => values.expiry === 'until',
      min: localDateTime(Date.now() + MIN_SECONDS * 1000),
      testId: 'ban-until',
    },
  ];
}

/** ban-user's body parts for what the ban dialog holds (the reason trimmed; none: the service's default). */
export function banRequest(values: PromptValues, translate: TranslateFunction) {
  try {
    return { reason: values.reason.trim() || undefined, expiresIn: banExpiresIn(values.expiry, values.until ?? '') };
  } catch (error) {
    if (error instanceof BanExpiryError) throw new Error(translate(error.message));
    throw error;
  }
}
