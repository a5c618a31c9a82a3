import type { User } from '../providers/dataProvider';

/** A user's ban as it holds now: `banned` stays set on a lapsed ban until the service clears it at sign-in. */
export interface BanState {
  /** Banned now: flagged, with no expiry or one still ahead. */
  active: boolean;
  /** An active ban's end; null when it has none. */
  until: Date | null;
  /** When a flagged ban ran out (the service lifts it at the user's next sign-in); null otherwise. */
  lapsed: Date | null;
}

/** spec §4 Ban: a ban whose expiry has passed no longer holds; the console shows the state in force. */
export function banState(user: Pick<User, 'banned' | 'banExpires'>, now: number = Date.now()): BanState {
  const expires = user.banExpires ? new Date(user.banExpires) : null;
  if (!user.banned) return { active: false, until: null, lapsed: null };
  if (expires && expires.getTime() <= now) return { active: false, until: null, lapsed: expires };
  return { active: true, until: expires, lapsed: null };
}
