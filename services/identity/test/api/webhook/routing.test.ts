import { newId } from '../../../src/crypto/random';
import type { RecordedEvent } from '../../../src/features/audit';
import { WebhookRepository } from '../../../src/features/webhook/repository';
import { EndpointRouting } from '../../../src/features/webhook/routing';
import { SYSTEM_SOURCE } from '../../../src/shared/audit';
import type { Sql } from '../../../src/shared/sql';
import { migratedScratchDatabase } from '../../setup/scratch-database';

/**
 * Which endpoints an event goes to is answered from memory: an event no endpoint wants (a sign-in, with endpoints
 * for other types only) costs its transaction no statement at all, which is what keeps sign-in as fast as before.
 */
const db = migratedScratchDatabase('webhook_routing');

function counting(sql: Sql) {
  const seen: string[] = [];
  const tx: Sql = {
    ...sql,
    query: (text, params, options) => {
      seen.push(text);
      return sql.query(text, params, options);
    },
    prepared: (name, text, params) => {
      seen.push(text);
      return sql.prepared(name, text, params);
    },
  };
  return { tx, seen };
}

const event = (type: RecordedEvent['type']): RecordedEvent => ({
  type,
  source: SYSTEM_SOURCE,
  id: newId(),
  occurredAt: new Date().toISOString(),
});

async function insertEndpoint(sql: Sql, eventTypes: string[]): Promise<string> {
  const id = newId();
  await new WebhookRepository(sql).insert(sql, {
    id,
    url: 'http://127.0.0.1:9/hook',
    eventTypes,
    enabled: true,
    description: null,
    secretSealed: 'sealed',
    previousSecretSealed: null,
    previousSecretExpiresAt: null,
    failingSince: null,
    disabledReason: null,
    createdAt: new Date(),
    updatedAt: new Date(),
  });
  return id;
}

it('loads the endpoints once (on the event transaction), then matches without a statement', async () => {
  const sql = db.sql();
  const endpoint = await insertEndpoint(sql, ['organization.', 'admin.user.banned']);
  const added: Array<{ topic: string; key: string; payload: { body: string } }> = [];
  const writer = {
    add: async (topic: string, key: string, payload: unknown) => {
      added.push({ topic, key, payload: payload as { body: string } });
      return true;
    },
  };
  const routing = new EndpointRouting(new WebhookRepository(sql), writer, 60_000, () => {});

  const first = counting(sql);
  await routing.follow(first.tx, event('user.signed_in'));
  expect(first.seen).toHaveLength(1); // the first event loads the enabled endpoints, on its own transaction

  const signIns = counting(sql);
  for (let i = 0; i < 100; i++) await routing.follow(signIns.tx, event('user.signed_in'));
  expect(signIns.seen).toEqual([]);
  expect(added).toEqual([]);

  const wanted = event('organization.created');
  await routing.follow(counting(sql).tx, wanted);
  await routing.follow(counting(sql).tx, event('admin.user.banned'));
  await routing.follow(counting(sql).tx, event('admin.user.unbanned'));
  expect(added.map((a) => a.topic)).toEqual(['webhook', 'webhook']);
  expect(added[0].key).toBe(`${wanted.id}.${endpoint}`);
  expect(JSON.parse(added[0].payload.body)).toMatchObject({
    type: 'organization.created',
    timestamp: wanted.occurredAt,
    data: { id: wanted.id, type: 'organization.created', actor: { type: 'system', id: null } },
  });

  // This instance's own change applies at once; another instance's at the next reload.
  routing.changed(null, endpoint);
  await routing.follow(counting(sql).tx, event('organization.created'));
  expect(added).toHaveLength(2);
  await routing.reload();
  await routing.follow(counting(sql).tx, event('organization.created'));
  expect(added).toHaveLength(3);
});
