import type { Permissions, Statements } from './model';

/**
 * spec §6 "Admin roles". `get` and `update` on user serve the operator calls the spec does not show
 * (admin get-user and update-user); `organization: list` serves the console's organization list and pages,
 * `organization: manage` lets an operator act on any organization's members, invitations and teams without being
 * a member (organization/access.ts); `apiKey: manage` lets an operator manage every API key and set their
 * quotas and permissions; `audit: read` lets an operator read the whole audit trail (docs/audit.md); `webhook`
 * covers the webhook endpoints (docs/webhooks.md): `read` lists them and their deliveries, `update` also rotates
 * secrets, sends test messages and redelivers; `oauthClient` covers the registered OAuth clients
 * (docs/oauth-clients.md): `read` lists and reads them, `update` also rotates their secrets.
 */
export const ADMIN_STATEMENTS = {
  user: ['create', 'list', 'set-role', 'ban', 'impersonate', 'delete', 'set-password', 'get', 'update'],
  session: ['list', 'revoke', 'delete'],
  organization: ['list', 'manage'],
  apiKey: ['manage'],
  audit: ['read'],
  webhook: ['create', 'read', 'update', 'delete'],
  oauthClient: ['create', 'read', 'update', 'delete'],
} as const satisfies Statements;

export type AdminResource = keyof typeof ADMIN_STATEMENTS;

export const ADMIN_DEFAULT_ROLES: Readonly<Record<string, Permissions>> = {
  admin: ADMIN_STATEMENTS,
  user: {},
};

/** spec §9: default role and the admin role list. */
export const ADMIN_DEFAULT_ROLE = 'user';
export const ADMIN_ROLE_NAMES = ['admin'] as const;
