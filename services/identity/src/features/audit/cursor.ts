import { fail } from '../../errors';
import type { Position } from './events.repository';

/** PostgreSQL's text of a timestamptz (`2026-11-24 13:39:43.123456+00`), as the cursor carries it. */
const PG_TIME = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(\.\d{1,6})?[+-]\d{2}(:\d{2})?$/;

/** An opaque cursor: where the last page ended (its last event's time and write order), base64url JSON. */
export function encodeCursor(position: Position): string {
  return Buffer.from(JSON.stringify([position.at, position.seq])).toString('base64url');
}

const SEQ = /^[0-9]{1,19}$/;

/** A cursor this service did not issue is a validation error naming the field. */
export function decodeCursor(cursor: string): Position {
  let decoded: unknown;
  try {
    decoded = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    decoded = null;
  }
  if (
    !Array.isArray(decoded) ||
    decoded.length !== 2 ||
    typeof decoded[0] !== 'string' ||
    !PG_TIME.test(decoded[0]) ||
    typeof decoded[1] !== 'string' ||
    !SEQ.test(decoded[1])
  )
    return fail('VALIDATION_ERROR', [{ field: 'cursor', problem: 'is not a cursor of this list' }]);
  return { at: decoded[0], seq: decoded[1] };
}
