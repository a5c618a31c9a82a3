import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { AUDIT_ACTOR_TYPES } from './audit';

/** The values a CHECK constraint of the migrated schema allows a text column (the committed snapshot). */
function allowedBy(constraint: string): string[] {
  const snapshot = readFileSync(join(__dirname, '../db/schema.snapshot.txt'), 'utf8');
  const line = snapshot.split('\n').find((l) => l.includes(`constraint ${constraint} CHECK`));
  if (!line) throw new Error(`no constraint ${constraint} in schema.snapshot.txt`);
  return [...line.matchAll(/'([^']+)'::text/g)].map((m) => m[1]);
}

describe('the audit vocabulary', () => {
  it('lists the kinds of actor the audit_events table allows, and no other', () => {
    expect([...AUDIT_ACTOR_TYPES].sort()).toEqual(allowedBy('audit_events_actor_type_known').sort());
  });
});
