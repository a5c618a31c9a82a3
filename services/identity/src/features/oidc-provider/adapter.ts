import { type Adapter, type AdapterPayload, errors } from 'oidc-provider';
import type { Clock } from '../../shared/clock';
import type { KeyValueStore } from '../../store';
import type { ClientSource } from './clients';
import { DURABLE_MODELS, type DurableModel, type RecordRepository } from './repository';
import { fromDatabase, fromStore, mapped } from './unavailable';

/** Where the library keeps a record, by its model name: PostgreSQL for the durable ones, else the key-value store. */
export type AdapterFactory = (model: string) => Adapter;

export interface StorageParts {
  store: KeyValueStore;
  records: RecordRepository;
  clients: ClientSource;
  clock: Clock;
  /** Added to each stored lifetime: the provider accepts a record this much past its expiry (clock tolerance). */
  toleranceSec: number;
  /** How long a revoked grant's marker is kept: the longest lifetime of a short-lived record that names a grant. */
  revokedGrantTtlSec: number;
}

const isDurable = (model: string): model is DurableModel => (DURABLE_MODELS as readonly string[]).includes(model);
const epoch = (ms: number) => Math.floor(ms / 1000);

/**
 * The library's storage interface over the service's stores (docs/oidc-provider.md, "Storage"):
 * - grants and refresh tokens in PostgreSQL (`oidc_records`), which outlive a Redis restart;
 * - everything short-lived (sessions, interactions, authorization codes, access tokens, PAR, replay markers, device
 *   codes) in the key-value store with its lifetime, under `oidc:<Model>:<id>`; a session is also found by its uid
 *   and a device code by its user code (`oidc:<Model>:uid:<uid>`, `…:userCode:<code>`);
 * - clients from the `ClientSource` (the static configuration today).
 *
 * A grant's revocation deletes its PostgreSQL records and leaves a marker (`oidc:revoked-grant:<id>`) that makes the
 * key-value records naming that grant unreadable until they would have expired; the grant itself is gone as well,
 * and the provider refuses a token whose grant it cannot find, so a marker lost with Redis loses nothing.
 * `consume` is atomic in both stores: of two uses of one code or refresh token at the same moment, one wins and the
 * other is a replay.
 */
export function createAdapterFactory(parts: StorageParts): AdapterFactory {
  const replayed = async (grantId: string | undefined): Promise<never> => {
    if (grantId) await revokeGrant(parts, grantId);
    throw new errors.InvalidGrant('grant source already used');
  };
  return (model) => {
    if (model === 'Client') return clientAdapter(parts.clients);
    if (isDurable(model)) return failingAs(durableAdapter(model, parts, replayed), fromDatabase);
    return failingAs(shortLivedAdapter(model, parts, replayed), (error) => fromDatabase(fromStore(error)));
  };
}

/** The adapter with its failures mapped (a store that cannot answer: 503, unavailable.ts). */
function failingAs(adapter: Adapter, map: (error: unknown) => unknown): Adapter {
  const wrapped = {} as Record<string, unknown>;
  for (const [name, method] of Object.entries(adapter) as Array<[string, (...args: unknown[]) => Promise<unknown>]>)
    wrapped[name] = (...args: unknown[]) => mapped(() => method(...args), map);
  return wrapped as unknown as Adapter;
}

/** A second use of a code or refresh token seen at `consume` (a race): everything of its grant is revoked. */
type Replayed = (grantId: string | undefined) => Promise<never>;

const REVOKED_GRANT = (grantId: string) => `oidc:revoked-grant:${grantId}`;

async function revokeGrant({ records, store, revokedGrantTtlSec }: StorageParts, grantId: string): Promise<void> {
  await store.set(REVOKED_GRANT(grantId), '1', revokedGrantTtlSec);
  await records.revokeByGrantId('RefreshToken', grantId);
  await records.destroy('Grant', grantId);
}

const unsupported = () => Promise.reject(new Error('not supported by this model'));

function clientAdapter(clients: ClientSource): Adapter {
  return {
    async find(id) {
      const client = await clients.find(id);
      if (!client) return undefined;
      return {
        client_id: client.clientId,
        // The provider wants a secret on a confidential client; the source checks the real one (compareClientSecret,
        // provider.ts), so this stand-in is never compared and signs nothing (HS algorithms are not enabled).
        ...(client.authMethod === 'none' ? {} : { client_secret: 'checked-by-the-client-source' }),
        client_name: client.name ?? undefined,
        logo_uri: client.logoUri ?? undefined,
        redirect_uris: client.redirectUris,
        post_logout_redirect_uris: client.postLogoutRedirectUris,
        grant_types: client.grantTypes,
        response_types: client.grantTypes.includes('authorization_code') ? ['code'] : [],
        scope: client.scopes.join(' '),
        token_endpoint_auth_method: client.authMethod,
        // Id tokens verify with RS256 unless the client registers another algorithm (OpenID Connect Core).
        id_token_signed_response_alg: 'RS256',
      } as AdapterPayload;
    },
    upsert: unsupported,
    findByUid: unsupported,
    findByUserCode: unsupported,
    consume: unsupported,
    destroy: unsupported,
    revokeByGrantId: unsupported,
  };
}

function durableAdapter(
  model: DurableModel,
  { records, clock, toleranceSec }: StorageParts,
  replayed: Replayed,
): Adapter {
  return {
    async upsert(id, payload, expiresIn) {
      const now = clock.now();
      await records.upsert({
        model,
        id,
        payload,
        grantId: model === 'Grant' ? id : (payload.grantId ?? null),
        userId: payload.accountId ?? null,
        expiresAt: typeof expiresIn === 'number' ? new Date(now + (expiresIn + toleranceSec) * 1000) : null,
        createdAt: new Date(now),
      });
    },
    async find(id) {
      const row = await records.find(model, id);
      if (!row) return undefined;
      const payload = row.payload as AdapterPayload;
      return row.consumedAt ? { ...payload, consumed: epoch(row.consumedAt.getTime()) } : payload;
    },
    async consume(id) {
      if (await records.consume(model, id, new Date(clock.now()))) return;
      const row = await records.find(model, id);
      await replayed((row?.payload as AdapterPayload | undefined)?.grantId);
    },
    async destroy(id) {
      await records.destroy(model, id);
    },
    async revokeByGrantId(grantId) {
      await records.revokeByGrantId(model, grantId);
    },
    findByUid: () => Promise.resolve(undefined),
    findByUserCode: () => Promise.resolve(undefined),
  };
}

function shortLivedAdapter(
  model: string,
  { store, toleranceSec, revokedGrantTtlSec }: StorageParts,
  replayed: Replayed,
): Adapter {
  const key = (id: string) => `oidc:${model}:${id}`;
  const uidKey = (uid: string) => `oidc:${model}:uid:${uid}`;
  const userCodeKey = (code: string) => `oidc:${model}:userCode:${code}`;
  const consumedKey = (id: string) => `oidc:${model}:consumed:${id}`;
  const revokedKey = REVOKED_GRANT;
  const ttlOf = (payload: AdapterPayload, expiresIn?: number) => {
    if (typeof expiresIn === 'number') return expiresIn + toleranceSec;
    if (typeof payload.exp === 'number') return Math.max(1, payload.exp - epoch(Date.now()) + toleranceSec);
    return revokedGrantTtlSec;
  };

  const read = async (id: string): Promise<AdapterPayload | undefined> => {
    const raw = await store.get(key(id));
    if (raw === null) return undefined;
    const payload = JSON.parse(raw) as AdapterPayload;
    if (payload.grantId && (await store.get(revokedKey(payload.grantId))) !== null) return undefined;
    return payload;
  };

  return {
    async upsert(id, payload, expiresIn) {
      const ttl = ttlOf(payload, expiresIn);
      await store.set(key(id), JSON.stringify(payload), ttl);
      if (payload.uid && model === 'Session') await store.set(uidKey(payload.uid), id, ttl);
      if (payload.userCode) await store.set(userCodeKey(payload.userCode), id, ttl);
    },
    find: read,
    async findByUid(uid) {
      const id = await store.get(uidKey(uid));
      return id === null ? undefined : read(id);
    },
    async findByUserCode(code) {
      const id = await store.get(userCodeKey(code));
      return id === null ? undefined : read(id);
    },
    async consume(id) {
      const payload = await read(id);
      if (!payload) return;
      const ttl = ttlOf(payload);
      if ((await store.incr(consumedKey(id), ttl)) > 1) await replayed(payload.grantId);
      await store.set(key(id), JSON.stringify({ ...payload, consumed: epoch(Date.now()) }), ttl);
    },
    async destroy(id) {
      const raw = await store.get(key(id));
      const payload = raw === null ? null : (JSON.parse(raw) as AdapterPayload);
      const keys = [key(id)];
      if (payload?.uid && model === 'Session') keys.push(uidKey(payload.uid));
      if (payload?.userCode) keys.push(userCodeKey(payload.userCode));
      await store.del(...keys);
    },
    async revokeByGrantId(grantId) {
      await store.set(revokedKey(grantId), '1', revokedGrantTtlSec);
    },
  };
}
