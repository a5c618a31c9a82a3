import type { components, paths } from '../api/schema';

/** One registered client as the API answers it (never with its secret), and the create and rotate answers. */
export type OAuthClient = components['schemas']['OAuthClient'];
export type OAuthClientWithSecret = components['schemas']['OAuthClientWithSecret'];
/** A client as react-admin holds it: its client id is the record's id. */
export type Application = OAuthClient & { id: string };
type Body<P extends '/admin/create-oauth-client' | '/admin/update-oauth-client'> = NonNullable<
  paths[P]['post']['requestBody']
>['content']['application/json'];
export type CreateApplicationBody = Body<'/admin/create-oauth-client'>;
/** What an edit may change (update-oauth-client's body without the client id). */
export type ApplicationChanges = Omit<Body<'/admin/update-oauth-client'>, 'clientId'>;
export type ApplicationsQuery = NonNullable<paths['/admin/list-oauth-clients']['get']['parameters']['query']>;
export type GrantType = OAuthClient['grantTypes'][number];

export const GRANT_TYPES: readonly GrantType[] = [
  'authorization_code',
  'refresh_token',
  'client_credentials',
  'urn:ietf:params:oauth:grant-type:device_code',
];

/** A URI list's entry in the form (react-admin's list editor holds objects). */
export type UriEntry = { uri: string };

/** The create and edit forms' values. Lifetimes are numbers or empty (the provider's default). */
export type ApplicationValues = {
  name: string;
  description: string;
  logoUri: string;
  type: OAuthClient['type'];
  redirectUris: UriEntry[];
  postLogoutRedirectUris: UriEntry[];
  grantTypes: GrantType[];
  scopes: string[];
  tokenEndpointAuthMethod: OAuthClient['tokenEndpointAuthMethod'];
  requirePkce: boolean;
  accessTokenFormat: OAuthClient['accessTokenFormat'];
  accessTokenTtlSec: number | null;
  refreshTokenTtlSec: number | null;
  idTokenTtlSec: number | null;
  firstParty: boolean;
  pairwiseSubject: boolean;
  backchannelLogoutUri: string;
  organizationId: string | null;
};

/** A new application's form: a confidential web application with the sign-in grants and scopes. */
export const NEW_APPLICATION: ApplicationValues = {
  name: '',
  description: '',
  logoUri: '',
  type: 'confidential',
  redirectUris: [{ uri: '' }],
  postLogoutRedirectUris: [],
  grantTypes: ['authorization_code', 'refresh_token'],
  scopes: ['openid', 'profile', 'email'],
  tokenEndpointAuthMethod: 'client_secret_basic',
  requirePkce: true,
  accessTokenFormat: 'opaque',
  accessTokenTtlSec: null,
  refreshTokenTtlSec: null,
  idTokenTtlSec: null,
  firstParty: false,
  pairwiseSubject: false,
  backchannelLogoutUri: '',
  organizationId: null,
};

/** The values an application's edit form opens with. */
export function applicationValues(client: OAuthClient): ApplicationValues {
  return {
    name: client.name,
    description: client.description ?? '',
    logoUri: client.logoUri ?? '',
    type: client.type,
    redirectUris: client.redirectUris.map((uri) => ({ uri })),
    postLogoutRedirectUris: client.postLogoutRedirectUris.map((uri) => ({ uri })),
    grantTypes: [...client.grantTypes],
    scopes: [...client.scopes],
    tokenEndpointAuthMethod: client.tokenEndpointAuthMethod,
    requirePkce: client.requirePkce,
    accessTokenFormat: client.accessTokenFormat,
    accessTokenTtlSec: client.accessTokenTtlSec,
    refreshTokenTtlSec: client.refreshTokenTtlSec,
    idTokenTtlSec: client.idTokenTtlSec,
    firstParty: client.firstParty,
    pairwiseSubject: client.pairwiseSubject,
    backchannelLogoutUri: client.backchannelLogoutUri ?? '',
    organizationId: client.organizationId,
  };
}

/**
 * A URI list as sent: trimmed, empty entries and repeats dropped, in the order typed (what the API keeps too), each
 * with its place in the form, so a refusal of the n-th sent URI shows under the right row.
 */
export function sentUris(entries: readonly UriEntry[] | undefined): { uri: string; row: number }[] {
  const seen = new Set<string>();
  const sent: { uri: string; row: number }[] = [];
  (entries ?? []).forEach((entry, row) => {
    const uri = (entry?.uri ?? '').trim();
    if (!uri || seen.has(uri)) return;
    seen.add(uri);
    sent.push({ uri, row });
  });
  return sent;
}

const uris = (entries: readonly UriEntry[] | undefined) => sentUris(entries).map((s) => s.uri);
const lifetime = (value: unknown): number | null =>
  value === null || value === undefined || value === '' || Number.isNaN(Number(value)) ? null : Number(value);
/** A public client authenticates with nothing and always uses PKCE (the API's rules): the form follows. */
const authMethod = (v: ApplicationValues) => (v.type === 'public' ? 'none' : v.tokenEndpointAuthMethod);
const pkce = (v: ApplicationValues) => (v.type === 'public' ? true : v.requirePkce);

/** create-oauth-client's body: texts trimmed, empty optional fields left out. */
export function createBody(v: ApplicationValues): CreateApplicationBody {
  const body: CreateApplicationBody = {
    name: v.name.trim(),
    type: v.type,
    redirectUris: uris(v.redirectUris),
    postLogoutRedirectUris: uris(v.postLogoutRedirectUris),
    grantTypes: [...v.grantTypes],
    scopes: [...v.scopes],
    tokenEndpointAuthMethod: authMethod(v),
    requirePkce: pkce(v),
    accessTokenFormat: v.accessTokenFormat,
    firstParty: v.firstParty,
    pairwiseSubject: v.pairwiseSubject,
  };
  const optional = {
    description: v.description.trim(),
    logoUri: v.logoUri.trim(),
    backchannelLogoutUri: v.backchannelLogoutUri.trim(),
  };
  for (const [key, value] of Object.entries(optional)) if (value) Object.assign(body, { [key]: value });
  for (const key of ['accessTokenTtlSec', 'refreshTokenTtlSec', 'idTokenTtlSec'] as const) {
    const value = lifetime(v[key]);
    if (value !== null) body[key] = value;
  }
  if (v.organizationId) body.organizationId = v.organizationId;
  return body;
}

const sameList = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * update-oauth-client's fields: only what differs from the stored client (an emptied optional field is null, which
 * clears it). Nothing changed gives `{}`, which the API answers with "No data to update".
 */
export function applicationChanges(v: ApplicationValues, client: OAuthClient): ApplicationChanges {
  const changes: ApplicationChanges = {};
  const name = v.name.trim();
  if (name !== client.name) changes.name = name;
  for (const key of ['description', 'logoUri', 'backchannelLogoutUri'] as const) {
    const value = v[key].trim() || null;
    if (value !== (client[key] ?? null)) changes[key] = value;
  }
  for (const key of ['redirectUris', 'postLogoutRedirectUris'] as const) {
    const list = uris(v[key]);
    if (!sameList(list, client[key])) changes[key] = list;
  }
  if (!sameList(v.grantTypes, client.grantTypes)) changes.grantTypes = [...v.grantTypes];
  if (!sameList(v.scopes, client.scopes)) changes.scopes = [...v.scopes];
  const method = authMethod({ ...v, type: client.type });
  if (method !== client.tokenEndpointAuthMethod) changes.tokenEndpointAuthMethod = method;
  const requirePkce = pkce({ ...v, type: client.type });
  if (requirePkce !== client.requirePkce) changes.requirePkce = requirePkce;
  if (v.accessTokenFormat !== client.accessTokenFormat) changes.accessTokenFormat = v.accessTokenFormat;
  for (const key of ['accessTokenTtlSec', 'refreshTokenTtlSec', 'idTokenTtlSec'] as const) {
    const value = lifetime(v[key]);
    if (value !== client[key]) changes[key] = value;
  }
  for (const key of ['firstParty', 'pairwiseSubject'] as const) if (v[key] !== client[key]) changes[key] = v[key];
  const organizationId = v.organizationId || null;
  if (organizationId !== client.organizationId) changes.organizationId = organizationId;
  return changes;
}

/**
 * The form field a refusal is about, from the API's detail (`redirectUris/1`, `grantTypes/0`, `body.name`): a URI
 * list's n-th sent entry is its row in the form; other lists are one field; undefined when the form has no such field.
 */
export function refusedPath(detailField: string | undefined, values: ApplicationValues): string | undefined {
  if (!detailField) return undefined;
  const [name, index] = detailField.replace(/^(body|query|querystring)\./, '').split(/[./]/);
  if (name === 'redirectUris' || name === 'postLogoutRedirectUris') {
    if (index === undefined) return name;
    const row = sentUris(values[name])[Number(index)]?.row;
    return row === undefined ? name : `${name}.${row}.uri`;
  }
  return Object.hasOwn(NEW_APPLICATION, name) ? name : undefined;
}

/** react-admin's list filters → list-oauth-clients' query. */
export function applicationsQuery(
  filter: Record<string, unknown> | undefined,
  page = 1,
  perPage = 25,
): ApplicationsQuery {
  const query: ApplicationsQuery = { limit: perPage, offset: (page - 1) * perPage };
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  const name = text(filter?.q);
  if (name) query.name = name;
  const type = text(filter?.type);
  if (type === 'confidential' || type === 'public') query.type = type;
  const organizationId = text(filter?.organizationId);
  if (organizationId) query.organizationId = organizationId;
  return query;
}

/** A grant type's short name for lists. */
export const grantLabel = (grant: string) =>
  grant === 'urn:ietf:params:oauth:grant-type:device_code' ? 'device_code' : grant;
