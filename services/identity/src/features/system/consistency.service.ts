import { STUCK_OUTBOX_ROWS } from '../../outbox/repository';
import { banInForceSql } from '../../shared/ban';
import type { Sql } from '../../shared/sql';

/** What the checks need from the configuration. */
export interface CheckSettings {
  /** The organization creator role (`organization.creatorRole`): an organization needs one member holding it. */
  creatorRole: string;
  /** An outbox row not done this long after it was written is reported (default 15 minutes). */
  outboxStuckAfterMs?: number;
}

/** Mail is normally handed over and sent within seconds, and a lost job is handed over again within a minute. */
export const OUTBOX_STUCK_AFTER_MS = 15 * 60_000;

type Row = Record<string, unknown>;

/**
 * One kind of partial state a multi-step operation could leave behind. `query` selects one row per occurrence,
 * with an `id` (the row to look at) and what `line` prints; never a secret (a session's token is a credential).
 */
export interface ConsistencyCheck {
  name: string;
  /** What a row found means, for the operator. */
  description: string;
  query(settings: CheckSettings): { text: string; params: unknown[] };
  line(row: Row): string;
}

/** The checks `cli check` runs, in order (docs/operations.md). Adding one is adding an entry. */
export const CONSISTENCY_CHECKS: readonly ConsistencyCheck[] = [
  {
    name: 'organization-without-owner',
    description: 'an organization none of whose members holds the creator role (nobody may delete it or grant it)',
    query: ({ creatorRole }) => ({
      // Roles are comma-separated; names are trimmed as access.ts reads them.
      text: `SELECT o.id, o.slug FROM organizations o
        WHERE NOT EXISTS (SELECT 1 FROM members m WHERE m.organization_id = o.id
          AND $1 = ANY (SELECT btrim(r) FROM unnest(string_to_array(m.role, ',')) r))
        ORDER BY o.created_at, o.id`,
      params: [creatorRole],
    }),
    line: (r) => `organization ${r.id} (slug ${r.slug}) has no member with the creator role`,
  },
  {
    name: 'session-of-banned-user',
    description: 'a session of a user whose ban is in force (banning ends every session); it never validates',
    query: () => ({
      text: `SELECT s.id, s.user_id, u.ban_expires FROM sessions s JOIN users u ON u.id = s.user_id
        WHERE ${banInForceSql('now()', 'u')}
        ORDER BY s.created_at, s.id`,
      params: [],
    }),
    line: (r) =>
      `session ${r.id} of user ${r.user_id}, banned ${r.ban_expires ? `until ${(r.ban_expires as Date).toISOString()}` : 'without expiry'}`,
  },
  {
    name: 'accepted-invitation-without-member',
    description: 'an accepted invitation whose accepting user is not a member of its organization',
    query: () => ({
      text: `SELECT i.id, i.organization_id, i.accepted_by FROM invitations i
        WHERE i.status = 'accepted' AND i.accepted_by IS NOT NULL
          AND NOT EXISTS (SELECT 1 FROM members m WHERE m.organization_id = i.organization_id AND m.user_id = i.accepted_by)
        ORDER BY i.created_at, i.id`,
      params: [],
    }),
    line: (r) =>
      `invitation ${r.id} was accepted by user ${r.accepted_by}, who is no member of organization ${r.organization_id}`,
  },
  {
    name: 'outbox-row-stuck',
    description:
      'work written to the outbox that no queue has confirmed long after (no API instance relaying, Redis away, no worker)',
    query: ({ outboxStuckAfterMs }) => ({
      // Never the payload: a mail's holds its link and token.
      text: `SELECT id, topic, created_at, attempts, relayed_to, last_error FROM outbox
        WHERE ${STUCK_OUTBOX_ROWS} ORDER BY created_at, id`,
      params: [outboxStuckAfterMs ?? OUTBOX_STUCK_AFTER_MS],
    }),
    line: (r) =>
      `outbox row ${r.id} (${r.topic}) written ${(r.created_at as Date).toISOString()}, not done after ${r.attempts} attempts${r.relayed_to ? `, handed to ${r.relayed_to}` : ''}${r.last_error ? `: ${r.last_error}` : ''}`,
  },
];

export interface CheckResult {
  name: string;
  description: string;
  rows: Row[];
}

/** Runs every check (read-only, one statement each); a check that finds nothing answers no rows. */
export async function runConsistencyChecks(
  sql: Sql,
  settings: CheckSettings,
  checks: readonly ConsistencyCheck[] = CONSISTENCY_CHECKS,
): Promise<CheckResult[]> {
  const results: CheckResult[] = [];
  for (const check of checks) {
    const { text, params } = check.query(settings);
    results.push({ name: check.name, description: check.description, rows: await sql.query(text, params) });
  }
  return results;
}

/** The human report: one line per partial state found, then a count. */
export function describeResults(results: CheckResult[], checks: readonly ConsistencyCheck[] = CONSISTENCY_CHECKS) {
  const lines = results.flatMap((result) => {
    const check = checks.find((c) => c.name === result.name)!;
    return result.rows.map((row) => `${result.name}: ${check.line(row)}`);
  });
  const found = lines.length;
  lines.push(found ? `${found} partial state${found === 1 ? '' : 's'} found` : 'no partial state found');
  return { found, text: lines.join('\n') };
}
