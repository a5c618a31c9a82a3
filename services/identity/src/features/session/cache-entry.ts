import { banInForce } from '../../shared/ban';
import type { SessionWithUser, UserView } from '../../shared/views';

/**
 * What a lookup checks before it answers: the session's expiry, last update (renewal), whether it is an
 * impersonation's (never renewed), its user's ban, and the remember-me choice the body does not carry.
 */
export interface EntryHead {
  id: string;
  rememberMe: boolean;
  /** Milliseconds since the epoch. */
  expiresAt: number;
  updatedAt: number;
  impersonated: boolean;
  /** The user's ban, as the body has it. */
  ban: Pick<UserView, 'banned' | 'banExpires'>;
}

/**
 * The marker of the entry format: an entry that does not open with it (an older version's) is a miss. Change it
 * when the head or the body's shape changes, so no instance answers an entry another version wrote.
 */
const FORMAT = 's2|';

const NOT_BANNED = { banned: false, banExpires: null } as const;

/**
 * A session as the lookups hold it: its get-session body (the answer's text, sent as it is) and the facts checked
 * on every lookup. In Redis it is `s2|<head fields, |-separated>|<body>`; reading one parses the head only, and
 * the body's JSON on first use of `value` (get-session's answer never needs it).
 */
export class CacheEntry {
  private parsed: SessionWithUser | undefined;

  private constructor(
    readonly json: string,
    readonly head: EntryHead,
    value?: SessionWithUser,
  ) {
    this.parsed = value;
  }

  /** An entry for a session read from PostgreSQL (or renewed): `json` is its get-session body. */
  static of(value: SessionWithUser, json: string): CacheEntry {
    const { session, user } = value;
    const head: EntryHead = {
      id: session.id,
      rememberMe: session.rememberMe,
      expiresAt: Date.parse(session.expiresAt),
      updatedAt: Date.parse(session.updatedAt),
      impersonated: session.impersonatedBy !== null,
      ban: { banned: user.banned, banExpires: user.banExpires },
    };
    return new CacheEntry(json, head, value);
  }

  /** An entry as Redis holds it; null for another format (an older version's) or a damaged one. */
  static read(raw: string): CacheEntry | null {
    if (!raw.startsWith(FORMAT)) return null;
    const fields: string[] = [];
    let at = FORMAT.length;
    for (let i = 0; i < 6; i++) {
      const end = raw.indexOf('|', at);
      if (end < 0) return null;
      fields.push(raw.slice(at, end));
      at = end + 1;
    }
    const [id, rememberMe, expiresAt, updatedAt, impersonated, ban] = fields;
    const head: EntryHead = {
      id,
      rememberMe: rememberMe === '1',
      expiresAt: Number(expiresAt),
      updatedAt: Number(updatedAt),
      impersonated: impersonated === '1',
      // '' not banned, '-' banned without end, else the end as the body writes it
      ban: ban === '' ? NOT_BANNED : { banned: true, banExpires: ban === '-' ? null : ban },
    };
    if (!(head.expiresAt > 0 && head.updatedAt > 0)) return null;
    return new CacheEntry(raw.slice(at), head);
  }

  /** The text Redis keeps. */
  stored(): string {
    const h = this.head;
    const ban = !h.ban.banned ? '' : (h.ban.banExpires ?? '-');
    return `${FORMAT}${h.id}|${h.rememberMe ? 1 : 0}|${h.expiresAt}|${h.updatedAt}|${h.impersonated ? 1 : 0}|${ban}|${this.json}`;
  }

  /** The session and its user, parsed from the body on first use (the remember-me choice from the head). */
  get value(): SessionWithUser {
    if (this.parsed === undefined) {
      const value = JSON.parse(this.json) as SessionWithUser;
      value.session.rememberMe = this.head.rememberMe;
      this.parsed = value;
    }
    return this.parsed;
  }

  /** Whether the user's ban is in force at `now` (shared/ban.ts, on the head's copy of it). */
  bannedAt(now: number): boolean {
    return banInForce(this.head.ban, now);
  }
}
