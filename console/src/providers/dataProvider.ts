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
import type { ApiClient } from '../api/client';
import type { components } from '../api/schema';
import { unwrap } from './errors';

export type User = components['schemas']['def-1'];
export type Session = components['schemas']['def-0'];

/** Filters the users list offers, each sent as filterField/filterValue with filterOperator eq. */
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

/** The admin actions, one named method each (DESIGN §2: a button calls one of these). */
export interface AdminMethods {
  banUser(userId: string, banReason?: string, banExpiresIn?: number): Promise<User>;
  unbanUser(userId: string): Promise<User>;
  setRole(userId: string, role: string): Promise<User>;
  setUserPassword(userId: string, newPassword: string): Promise<void>;
  impersonateUser(userId: string): Promise<{ session: Session; user: User }>;
  stopImpersonating(): Promise<void>;
  listUserSessions(userId: string): Promise<Session[]>;
  revokeUserSession(sessionToken: string): Promise<void>;
  revokeUserSessions(userId: string): Promise<void>;
}

export type ConsoleDataProvider = DataProvider & AdminMethods;

/** get-full-organization's refusal for a non-member (the catalogue code). */
export const NOT_A_MEMBER = 'USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION';
const ORG_PAGE = 1000;

function unsupported(what: string): never {
  throw new Error(`console: ${what} is not supported`);
}

/** react-admin's getList params → list-users' query (README "Admin"). */
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
    // An @ means an email; otherwise a name (list-users searches one field at a time).
    query.searchField = q.includes('@') || filter.searchField === 'email' ? 'email' : (filter.searchField ?? 'name');
    query.searchOperator = 'contains';
  }
  // list-users takes one filter: the first one set, in USER_FILTERS order.
  for (const field of USER_FILTERS) {
    const value = filter[field];
    if (value === undefined || value === null || value === '') continue;
    query.filterField = field;
    query.filterValue = value;
    query.filterOperator = 'eq';
    break;
  }
  return query;
}

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
      const data = unwrap(await client.POST('/admin/create-user', { body }));
      return { data: data.user };
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
      const { page = 1, perPage = 25 } = params.pagination ?? {};
      const query = { limit: perPage, offset: (page - 1) * perPage };
      const data = unwrap(await client.GET('/admin/list-organizations', { params: { query } }));
      return { data: data.organizations, total: data.total };
    },
    /**
     * get-full-organization answers members only to members. For an organization the admin is not in, the record
     * comes from admin/list-organizations (paged through) with `members: null`, and the page says why.
     */
    async getOne(params: GetOneParams) {
      const id = String(params.id);
      const full = await client.GET('/organization/get-full-organization', {
        params: { query: { organizationId: id } },
      });
      const code = (full.error as { code?: string } | undefined)?.code;
      if (code !== NOT_A_MEMBER) {
        const data = unwrap(full);
        if (!data) throw new Error('ra.notification.item_doesnt_exist');
        return { data };
      }
      for (let offset = 0; ; offset += ORG_PAGE) {
        const query = { limit: ORG_PAGE, offset };
        const page = unwrap(await client.GET('/admin/list-organizations', { params: { query } }));
        const found = page.organizations.find((o) => o.id === id);
        if (found) return { data: { ...found, members: null } };
        if (page.organizations.length < ORG_PAGE) throw new Error('ra.notification.item_doesnt_exist');
      }
    },
  };

  const resources: Record<string, Partial<Record<string, (params: never) => Promise<unknown>>>> = {
    users,
    organizations,
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
      return unwrap(await client.POST('/admin/list-user-sessions', { body: { userId } })).sessions;
    },
    async revokeUserSession(sessionToken) {
      unwrap(await client.POST('/admin/revoke-user-session', { body: { sessionToken } }));
    },
    async revokeUserSessions(userId) {
      unwrap(await client.POST('/admin/revoke-user-sessions', { body: { userId } }));
    },
  };
}
