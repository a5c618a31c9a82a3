import { createHash } from 'node:crypto';
import { newId } from '../../crypto/random';
import type { Sql } from '../../shared/sql';

/** What a sign-in link was asked for with: kept with its token's hash, never the token. */
export interface LinkRecord {
  email: string;
  /** The name given for a new user (sign-up through the link). */
  name: string | null;
  /** The browser binding's value (the signed cookie of the browser that asked), or null: any browser. */
  browser: string | null;
}

/** A token's key in the verifications table: its SHA-256, so a read of the table gives no usable link. */
const identifier = (token: string) => `magic-link:${createHash('sha256').update(token).digest('base64url')}`;

/**
 * Sign-in links in the verifications table (the reset and deletion tokens' table; its sweep removes expired rows).
 * `take` is one DELETE … RETURNING: of any number of requests presenting the same link, exactly one gets the row.
 */
export class MagicLinkRepository {
  constructor(private readonly sql: Sql) {}

  async put(token: string, record: LinkRecord, expiresAt: Date, now: Date, tx: Sql): Promise<void> {
    await tx.query(
      `INSERT INTO verifications (id, identifier, value, expires_at, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $5)`,
      [newId(), identifier(token), JSON.stringify(record), expiresAt, now],
    );
  }

  /** The record of a live link, without using it up (the checks before the session's transaction). */
  async peek(token: string, now: Date): Promise<LinkRecord | null> {
    const rows = await this.sql.query<{ value: string }>(
      'SELECT value FROM verifications WHERE identifier = $1 AND expires_at > $2',
      [identifier(token), now],
    );
    return rows[0] ? parseRecord(rows[0].value) : null;
  }

  /** Uses the link up; false when it was already used (or expired meanwhile). */
  async take(token: string, now: Date, tx: Sql): Promise<boolean> {
    const rows = await tx.query<{ expires_at: Date }>(
      'DELETE FROM verifications WHERE identifier = $1 RETURNING expires_at',
      [identifier(token)],
    );
    return rows.length > 0 && rows[0].expires_at.getTime() > now.getTime();
  }
}

function parseRecord(value: string): LinkRecord | null {
  try {
    const parsed = JSON.parse(value) as Partial<LinkRecord>;
    if (typeof parsed.email !== 'string') return null;
    return {
      email: parsed.email,
      name: typeof parsed.name === 'string' ? parsed.name : null,
      browser: typeof parsed.browser === 'string' ? parsed.browser : null,
    };
  } catch {
    return null;
  }
}
