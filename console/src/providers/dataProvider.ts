import type {
  CreateParams,
  DataProvider,
  DeleteManyParams,
  DeleteParams,
  GetListParams,
  GetManyParams,
  GetManyReferenceParams,
  GetOneParams,
  UpdateManyParams,
  UpdateParams,
} from 'react-admin';
import { HttpError } from 'react-admin';
import type { ApiClient } from '../api/client';
import type { components, paths } from '../api/schema';
import {
  type Application,
  type ApplicationChanges,
  applicationsQuery,
  type CreateApplicationBody,
  type OAuthClient,
  type OAuthClientWithSecret,
} from '../applications/applicationForm';
import type { AuditEventPage, EventsQuery } from '../audit/auditEvents';
import { asFormErrors } from '../common/refusal';
import type {
  CreateWebhookBody,
  WebhookChanges,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '../webhooks/webhookForm';
import { unwrap } from './errors';

/** The API's named shapes (components of openapi.yaml). */
export type User = components['schemas']['User'];
export type Session = components['schemas']['Session'];
/** A session as the session lists answer it: with how it was made (signInMethod, secondFactor). */
export type ListedSession = components['schemas']['ListedSession'];
export type SessionWithUser = components['schemas']['SessionWithUser'];
export type Member = components['schemas']['Member'];
export type Invitation = components['schemas']['Invitation'];
export type Team = components['schemas']['Team'];
export type TeamMember = components['schemas']['TeamMember'];
/** A user's passkey as operators see it (admin/list-user-passkeys): never its key or credential id. */
export type AdminPasskey = components['schemas']['AdminPasskey'];

/** Filters the users list offers, each sent as list-users' parameter of the same name (an equality; all apply). */
export const USER_FILTERS = ['role', 'banned', 'emailVerified'] as const;
/** Columns list-users can sort by (its filter fields); anything else falls back to the API default. */
const USER_SORTS = new Set([
  'id',
  'email',
  'name',
  'role',
  'banned',
  'emailVerified',
  'createdAt',
  'updatedAt',
  'banExpires',
]);

/** Columns admin/list-organizations sorts by; anything else falls back to the API default (newest first). */
const ORGANIZATION_SORTS = new Set(['name', 'createdAt', 'memberCount']);

/** react-admin's getList params → list-organizations' query: a page, the search (name or slug) and the sort. */
export function listOrganizationsQuery(params: GetListParams) {
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  const query: NonNullable<paths['/admin/list-organizations']['get']['parameters']['query']> = {
    limit: perPage,
    offset: (page - 1) * perPage,
  };
  const q = typeof params.filter?.q === 'string' ? params.filter.q.trim() : '';
  if (q) query.searchValue = q;
  const sort = params.sort;
  if (sort?.field && ORGANIZATION_SORTS.has(sort.field)) {
    query.sortBy = sort.field as 'name' | 'createdAt' | 'memberCount';
    query.sortDirection = sort.order === 'ASC' ? 'asc' : 'desc';
  }
  return query;
}

/** What an organization's edit may change (admin/organization/update's `data`). */
export type OrganizationChanges = NonNullable<
  paths['/admin/organization/update']['post']['requestBody']
>['content']['application/json']['data'];

/** The admin actions, one named method each (a button calls one of these). */
export interface AdminMethods {
  banUser(userId: string, banReason?: string, banExpiresIn?: number): Promise<User>;
  unbanUser(userId: string): Promise<User>;
  setRole(userId: string, role: string): Promise<User>;
  setUserPassword(userId: string, newPassword: string): Promise<void>;
  impersonateUser(userId: string): Promise<SessionWithUser>;
  stopImpersonating(): Promise<void>;
  /** The user's sessions without their tokens (hideTokens): the console never holds another user's token. */
  listUserSessions(userId: string): Promise<ListedSession[]>;
  /** One session, by the id list-user-sessions answers. */
  revokeUserSession(sessionId: string): Promise<void>;
  revokeUserSessions(userId: string): Promise<void>;
  /** Mails the user a password-reset link, as if they had asked for it. */
  sendResetPassword(userId: string): Promise<void>;
  /**
   * Whether the signed-in operator is held to the admin second-factor policy and has none yet (docs/two-factor.md
   * "Policies"): an admin read answering TWO_FACTOR_REQUIRED says so.
   */
  secondFactorRequired(): Promise<boolean>;
  /** The signed-in user starts enrolling: the otpauth:// URI and the backup codes. */
  enableTwoFactor(password: string): Promise<{ totpURI: string; backupCodes: string[] }>;
  /** The first code from the app: the second factor is on from then. */
  verifyTotp(code: string): Promise<void>;
  /** Removes the user's second factors (TOTP, backup codes, trusted devices, passkeys); the user is mailed. */
  resetTwoFactor(userId: string): Promise<User>;
  /** The user's passkeys, oldest first (admin/list-user-passkeys, needs `user: get`). */
  listUserPasskeys(userId: string): Promise<AdminPasskey[]>;
  /** Mails a user whose email is not verified a verification link. */
  sendVerificationEmail(userId: string): Promise<void>;
  listUserAccounts(userId: string): Promise<LinkedAccount[]>;
  listUserOrganizations(userId: string): Promise<UserMembership[]>;
  /** The configured user and organization roles, for the role pickers. */
  listRoles(): Promise<RoleCatalogue>;
  /** The dashboard's figures (admin/stats) over the last `days` days. */
  getStats(days: number): Promise<Stats>;
  /** Users whose email contains `text` (a picker's search), at most `limit`. */
  searchUsersByEmail(text: string, limit?: number): Promise<User[]>;
  /** One page of the audit trail (admin/list-events), newest first; `nextCursor` null on the last page. */
  listEvents(query: EventsQuery): Promise<AuditEventPage>;
}

/** Operator actions on an organization (admin/organization/*: no membership needed). */
export interface OrganizationMethods {
  /** admin/organization/update: only the fields given change. */
  updateOrganization(organizationId: string, data: OrganizationChanges): Promise<Organization>;
  deleteOrganization(organizationId: string): Promise<void>;
  /** An existing user joins at once (admin/organization/add-member), with one or more roles (comma-separated). */
  addMember(organizationId: string, userId: string, role: string): Promise<Member>;
  inviteMember(organizationId: string, email: string, role: string, resend?: boolean): Promise<Invitation>;
  cancelInvitation(invitationId: string): Promise<Invitation>;
  updateMemberRole(organizationId: string, memberId: string, role: string): Promise<Member>;
  removeMember(organizationId: string, memberIdOrEmail: string): Promise<void>;
  createTeam(organizationId: string, name: string): Promise<Team>;
  renameTeam(organizationId: string, teamId: string, name: string): Promise<Team>;
  removeTeam(organizationId: string, teamId: string): Promise<void>;
  addTeamMember(organizationId: string, teamId: string, userId: string): Promise<void>;
  removeTeamMember(organizationId: string, teamId: string, userId: string): Promise<void>;
}

/** The webhook endpoints (admin/*-webhook-*, docs/webhooks.md); the secret comes only from create and rotate. */
export interface WebhookMethods {
  createWebhookEndpoint(body: CreateWebhookBody): Promise<WebhookEndpointWithSecret>;
  updateWebhookEndpoint(id: string, changes: WebhookChanges): Promise<WebhookEndpoint>;
  deleteWebhookEndpoint(id: string): Promise<void>;
  rotateWebhookSecret(id: string): Promise<WebhookEndpointWithSecret>;
  /** One page of the endpoint's attempts, newest first; `nextCursor` null on the last page. */
  listWebhookDeliveries(endpointId: string, cursor?: string | null, limit?: number): Promise<WebhookDeliveryPage>;
  /** Queues a `webhook.test` message; answers its webhook-id. */
  sendTestWebhook(id: string): Promise<string>;
  /** Queues the event again under its first webhook-id; answers it. */
  redeliverWebhook(id: string, eventId: string): Promise<string>;
}

/**
 * The registered OAuth clients, the Applications page (admin/*-oauth-client*, docs/oauth-clients.md); the secret
 * comes only from create and rotate, and is never put in react-admin's cache.
 */
export interface ApplicationMethods {
  createApplication(body: CreateApplicationBody): Promise<OAuthClientWithSecret>;
  updateApplication(clientId: string, changes: ApplicationChanges): Promise<Application>;
  deleteApplication(clientId: string): Promise<void>;
  rotateApplicationSecret(clientId: string): Promise<OAuthClientWithSecret>;
  /** The scopes a client may be allowed (the service's standard ones and its configured API scopes). */
  listOAuthScopes(): Promise<string[]>;
}

export type ConsoleDataProvider = DataProvider &
  AdminMethods &
  OrganizationMethods &
  WebhookMethods &
  ApplicationMethods;

/** A client as a react-admin record: its client id is the record's id. */
export const asApplication = (client: OAuthClient): Application => ({ ...client, id: client.clientId });

type Ok<P extends keyof paths, M extends 'get' | 'post'> = paths[P][M] extends {
  responses: { 200: { content: { 'application/json': infer R } } };
}
  ? R
  : never;
export type LinkedAccount = Ok<'/admin/list-user-accounts', 'get'>[number];
export type UserMembership = Ok<'/admin/list-user-organizations', 'get'>[number];
export type FullOrganization = Ok<'/admin/organization/get', 'get'>;
export type RoleCatalogue = Ok<'/admin/list-roles', 'get'>;
export type OrganizationSummary = Ok<'/admin/list-organizations', 'get'>['organizations'][number];
export type Stats = Ok<'/admin/stats', 'get'>;
export type Organization = Ok<'/admin/organization/update', 'post'>;

/** The create pages' fields (UserCreate, OrganizationCreate): a refusal about one of them shows under it. */
const USER_CREATE_FIELDS = ['email', 'name', 'password', 'role'] as const;
const ORGANIZATION_CREATE_FIELDS = ['name', 'slug', 'userId'] as const;

/** Runs a create call; a refusal about one of the form's `fields` rejects as react-admin's form errors. */
async function refusalsInForm<T>(fields: readonly string[], call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    throw asFormErrors(error, fields);
  }
}

function unsupported(what: string): never {
  throw new Error(`console: ${what} is not supported`);
}

/** react-admin's getList params → list-users' query (docs/admin.md). */
export function listUsersQuery(params: GetListParams) {
  const { page = 1, perPage = 25 } = params.pagination ?? {};
  const query: Record<string, string | number | boolean> = { limit: perPage, offset: (page - 1) * perPage };
  const sort = params.sort;
  if (sort?.field && USER_SORTS.has(sort.field)) {
    query.sortBy = sort.field;
    query.sortDirection = sort.order === 'ASC' ? 'asc' : 'desc';
  }
  const filter = params.filter ?? {};
  const q = typeof filter.q === 'string' ? filter.q.trim() : '';
  if (q) {
    query.searchValue = q;
    // One box: part of the email or of the name (names without regard to accents), unless a field is named.
    query.searchField = filter.searchField === 'email' || filter.searchField === 'name' ? filter.searchField : 'any';
    query.searchOperator = 'contains';
  }
  // Every filter set applies (list-users' role, banned and emailVerified parameters, combined with AND).
  for (const field of USER_FILTERS) if (isFilterSet(filter[field])) query[field] = filter[field];
  return query;
}

export type UserFilter = (typeof USER_FILTERS)[number];

/** A filter value the list sends (react-admin keeps a shown but empty filter as undefined or ''). */
export const isFilterSet = (value: unknown) => value !== undefined && value !== null && value !== '';

export function makeDataProvider(client: ApiClient): ConsoleDataProvider {
  const users = {
    async getList(params: GetListParams) {
      const data = unwrap(await client.GET('/admin/list-users', { params: { query: listUsersQuery(params) } }));
      return { data: data.users, total: data.total };
    },
    async getOne(params: GetOneParams) {
      const data = unwrap(await client.GET('/admin/get-user', { params: { query: { id: String(params.id) } } }));
      return { data };
    },
    async create(params: CreateParams) {
      const { email, password, name, role } = params.data;
      const body = { email, password, name, ...(role ? { role } : {}) };
      const created = await refusalsInForm(USER_CREATE_FIELDS, async () =>
        unwrap(await client.POST('/admin/create-user', { body })),
      );
      return { data: created.user };
    },
    async update(params: UpdateParams) {
      const { name, image, language, role } = params.data;
      const changes = Object.fromEntries(
        Object.entries({ name, image, language, role }).filter(
          ([key, value]) => value !== undefined && value !== (params.previousData as Record<string, unknown>)?.[key],
        ),
      );
      const body = { userId: String(params.id), data: changes };
      const data = unwrap(await client.POST('/admin/update-user', { body }));
      return { data };
    },
    async delete(params: DeleteParams) {
      unwrap(await client.POST('/admin/remove-user', { body: { userId: String(params.id) } }));
      return { data: params.previousData ?? { id: params.id } };
    },
  };

  const organizations = {
    async getList(params: GetListParams) {
      const query = listOrganizationsQuery(params);
      const data = unwrap(await client.GET('/admin/list-organizations', { params: { query } }));
      return { data: data.organizations, total: data.total };
    },
    /** The whole organization (members, invitations, teams, team members) as an operator: no membership needed. */
    async getOne(params: GetOneParams) {
      const query = { organizationId: String(params.id) };
      return { data: unwrap(await client.GET('/admin/organization/get', { params: { query } })) };
    },
    /** The owner is the chosen user (userId), else the signed-in operator. */
    async create(params: CreateParams) {
      const { name, slug, userId } = params.data;
      const body = { name, slug, ...(userId ? { userId } : {}) };
      const created = await refusalsInForm(ORGANIZATION_CREATE_FIELDS, async () =>
        unwrap(await client.POST('/admin/organization/create', { body })),
      );
      // The show page may render this record before it refetches: give it the full shape.
      return { data: { ...created, invitations: [], teams: [], teamMembers: [] } };
    },
  };

  const listEndpoints = async () => unwrap(await client.GET('/admin/list-webhook-endpoints', {})).endpoints;
  const webhooks = {
    /** Every endpoint, oldest first: the API does not page them (there are few). */
    async getList(_params: GetListParams) {
      const endpoints = await listEndpoints();
      return { data: endpoints, total: endpoints.length };
    },
    /** The API has no call for one endpoint: it is found in the list. */
    async getOne(params: GetOneParams) {
      const found = (await listEndpoints()).find((e) => e.id === String(params.id));
      if (!found) throw new HttpError('Webhook endpoint not found', 404, { code: 'WEBHOOK_ENDPOINT_NOT_FOUND' });
      return { data: found };
    },
  };

  const applications = {
    async getList(params: GetListParams) {
      const { page = 1, perPage = 25 } = params.pagination ?? {};
      const query = applicationsQuery(params.filter, page, perPage);
      const data = unwrap(await client.GET('/admin/list-oauth-clients', { params: { query } }));
      return { data: data.clients.map(asApplication), total: data.total };
    },
    async getOne(params: GetOneParams) {
      const query = { clientId: String(params.id) };
      const data = unwrap(await client.GET('/admin/get-oauth-client', { params: { query } }));
      return { data: asApplication(data.client) };
    },
  };

  const resources: Record<string, Partial<Record<string, (params: never) => Promise<unknown>>>> = {
    users,
    organizations,
    webhooks,
    applications,
  };
  const route =
    <P, R>(method: string) =>
    async (resource: string, params: P): Promise<R> => {
      const handler = resources[resource]?.[method] as ((p: P) => Promise<R>) | undefined;
      if (!handler) unsupported(`${method} on ${resource}`);
      return handler(params);
    };

  return {
    getList: route<GetListParams, never>('getList'),
    getOne: route<GetOneParams, never>('getOne'),
    create: route<CreateParams, never>('create'),
    update: route<UpdateParams, never>('update'),
    delete: route<DeleteParams, never>('delete'),
    async getMany(resource: string, params: GetManyParams) {
      const data = await Promise.all(
        params.ids.map(async (id) => (await route<GetOneParams, { data: unknown }>('getOne')(resource, { id })).data),
      );
      return { data } as never;
    },
    getManyReference: (_resource: string, _params: GetManyReferenceParams) => unsupported('getManyReference'),
    updateMany: (_resource: string, _params: UpdateManyParams) => unsupported('updateMany'),
    async deleteMany(resource: string, params: DeleteManyParams) {
      for (const id of params.ids) await route<DeleteParams, unknown>('delete')(resource, { id });
      return { data: params.ids } as never;
    },

    async banUser(userId, banReason, banExpiresIn) {
      const body = { userId, ...(banReason ? { banReason } : {}), ...(banExpiresIn ? { banExpiresIn } : {}) };
      return unwrap(await client.POST('/admin/ban-user', { body })).user;
    },
    async unbanUser(userId) {
      return unwrap(await client.POST('/admin/unban-user', { body: { userId } })).user;
    },
    async setRole(userId, role) {
      return unwrap(await client.POST('/admin/set-role', { body: { userId, role } })).user;
    },
    async setUserPassword(userId, newPassword) {
      unwrap(await client.POST('/admin/set-user-password', { body: { userId, newPassword } }));
    },
    async impersonateUser(userId) {
      return unwrap(await client.POST('/admin/impersonate-user', { body: { userId } }));
    },
    async stopImpersonating() {
      unwrap(await client.POST('/admin/stop-impersonating', {}));
    },
    async listUserSessions(userId) {
      const body = { userId, hideTokens: true };
      return unwrap(await client.POST('/admin/list-user-sessions', { body })).sessions;
    },
    async revokeUserSession(sessionId) {
      unwrap(await client.POST('/admin/revoke-user-session', { body: { sessionId } }));
    },
    async revokeUserSessions(userId) {
      unwrap(await client.POST('/admin/revoke-user-sessions', { body: { userId } }));
    },
    async sendResetPassword(userId) {
      unwrap(await client.POST('/admin/send-reset-password', { body: { userId } }));
    },
    async secondFactorRequired() {
      const { response, error } = await client.GET('/admin/list-roles');
      return response.status === 403 && (error as { code?: string } | undefined)?.code === 'TWO_FACTOR_REQUIRED';
    },
    async enableTwoFactor(password) {
      const { totpURI, backupCodes } = unwrap(await client.POST('/two-factor/enable', { body: { password } }));
      return { totpURI, backupCodes };
    },
    async verifyTotp(code) {
      unwrap(await client.POST('/two-factor/verify-totp', { body: { code } }));
    },
    async resetTwoFactor(userId) {
      return unwrap(await client.POST('/admin/reset-two-factor', { body: { userId } })).user;
    },
    async listUserPasskeys(userId) {
      return unwrap(await client.GET('/admin/list-user-passkeys', { params: { query: { userId } } }));
    },
    async sendVerificationEmail(userId) {
      unwrap(await client.POST('/admin/send-verification-email', { body: { userId } }));
    },
    async listUserAccounts(userId) {
      return unwrap(await client.GET('/admin/list-user-accounts', { params: { query: { userId } } }));
    },
    async listUserOrganizations(userId) {
      return unwrap(await client.GET('/admin/list-user-organizations', { params: { query: { userId } } }));
    },
    async listRoles() {
      return unwrap(await client.GET('/admin/list-roles', {}));
    },
    async getStats(days) {
      return unwrap(await client.GET('/admin/stats', { params: { query: { days } } }));
    },
    async searchUsersByEmail(text, limit = 10) {
      const query = { searchValue: text, searchField: 'email', searchOperator: 'contains', limit } as const;
      return unwrap(await client.GET('/admin/list-users', { params: { query } })).users;
    },
    async listEvents(query) {
      return unwrap(await client.GET('/admin/list-events', { params: { query } }));
    },

    async updateOrganization(organizationId, data) {
      return unwrap(await client.POST('/admin/organization/update', { body: { organizationId, data } }));
    },
    async deleteOrganization(organizationId) {
      unwrap(await client.POST('/admin/organization/delete', { body: { organizationId } }));
    },
    async addMember(organizationId, userId, role) {
      const body = { organizationId, userId, role };
      return unwrap(await client.POST('/admin/organization/add-member', { body }));
    },

    async inviteMember(organizationId, email, role, resend) {
      const body = { organizationId, email, role, ...(resend ? { resend } : {}) };
      return unwrap(await client.POST('/admin/organization/invite-member', { body }));
    },
    async cancelInvitation(invitationId) {
      return unwrap(await client.POST('/admin/organization/cancel-invitation', { body: { invitationId } }));
    },
    async updateMemberRole(organizationId, memberId, role) {
      const body = { organizationId, memberId, role };
      return unwrap(await client.POST('/admin/organization/update-member-role', { body }));
    },
    async removeMember(organizationId, memberIdOrEmail) {
      const body = { organizationId, memberIdOrEmail };
      unwrap(await client.POST('/admin/organization/remove-member', { body }));
    },
    async createTeam(organizationId, name) {
      return unwrap(await client.POST('/admin/organization/create-team', { body: { organizationId, name } }));
    },
    async renameTeam(organizationId, teamId, name) {
      const body = { organizationId, teamId, name };
      return unwrap(await client.POST('/admin/organization/update-team', { body }));
    },
    async removeTeam(organizationId, teamId) {
      unwrap(await client.POST('/admin/organization/remove-team', { body: { organizationId, teamId } }));
    },
    async addTeamMember(organizationId, teamId, userId) {
      const body = { organizationId, teamId, userId };
      unwrap(await client.POST('/admin/organization/add-team-member', { body }));
    },
    async removeTeamMember(organizationId, teamId, userId) {
      const body = { organizationId, teamId, userId };
      unwrap(await client.POST('/admin/organization/remove-team-member', { body }));
    },

    async createWebhookEndpoint(body) {
      return unwrap(await client.POST('/admin/create-webhook-endpoint', { body }));
    },
    async updateWebhookEndpoint(id, changes) {
      return unwrap(await client.POST('/admin/update-webhook-endpoint', { body: { id, ...changes } })).endpoint;
    },
    async deleteWebhookEndpoint(id) {
      unwrap(await client.POST('/admin/delete-webhook-endpoint', { body: { id } }));
    },
    async rotateWebhookSecret(id) {
      return unwrap(await client.POST('/admin/rotate-webhook-secret', { body: { id } }));
    },
    async listWebhookDeliveries(endpointId, cursor, limit = 50) {
      const query = { endpointId, limit, ...(cursor ? { cursor } : {}) };
      return unwrap(await client.GET('/admin/list-webhook-deliveries', { params: { query } }));
    },
    async sendTestWebhook(id) {
      return unwrap(await client.POST('/admin/send-test-webhook', { body: { id } })).webhookId;
    },
    async redeliverWebhook(id, eventId) {
      return unwrap(await client.POST('/admin/redeliver-webhook', { body: { id, eventId } })).webhookId;
    },

    async createApplication(body) {
      return unwrap(await client.POST('/admin/create-oauth-client', { body }));
    },
    async updateApplication(clientId, changes) {
      const body = { clientId, ...changes };
      return asApplication(unwrap(await client.POST('/admin/update-oauth-client', { body })).client);
    },
    async deleteApplication(clientId) {
      unwrap(await client.POST('/admin/delete-oauth-client', { body: { clientId } }));
    },
    async rotateApplicationSecret(clientId) {
      return unwrap(await client.POST('/admin/rotate-oauth-client-secret', { body: { clientId } }));
    },
    async listOAuthScopes() {
      return unwrap(await client.GET('/admin/list-oauth-scopes', {})).scopes;
    },
  };
}
