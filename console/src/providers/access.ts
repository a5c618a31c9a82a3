// The one server import the console allows (the service package's `./access` export; a dependency rule in CI
// refuses any other): the access-control model is pure (no I/O, no framework), so canAccess reuses the service's
// own admin role table instead of copying it.
import {
  ADMIN_DEFAULT_ROLES,
  ADMIN_ROLE_NAMES,
  ADMIN_STATEMENTS,
  authorizeRoles,
  buildRoles,
  type Permissions,
  roleNames,
} from '@identity/service/access';

const ADMIN_ROLES = buildRoles(ADMIN_STATEMENTS, ADMIN_DEFAULT_ROLES);

/** react-admin (resource, action) → the admin statements the API checks for that screen or button. */
const ACTIONS: Record<string, Record<string, Permissions>> = {
  users: {
    list: { user: ['list'] },
    show: { user: ['get'] },
    create: { user: ['create'] },
    edit: { user: ['update'] },
    delete: { user: ['delete'] },
    'set-role': { user: ['set-role'] },
    ban: { user: ['ban'] },
    impersonate: { user: ['impersonate'] },
    'set-password': { user: ['set-password'] },
    /** admin/reset-two-factor: the same permission as setting the password (docs/two-factor.md "For operators"). */
    'reset-two-factor': { user: ['set-password'] },
    /** admin/list-user-passkeys. */
    'list-passkeys': { user: ['get'] },
    'list-sessions': { session: ['list'] },
    'revoke-sessions': { session: ['revoke'] },
  },
  /** The dashboard's figures (admin/stats): the users list's permission. */
  dashboard: {
    stats: { user: ['list'] },
  },
  /** The audit trail (admin/list-events): the Audit page and the Activity tabs. */
  events: {
    list: { audit: ['read'] },
  },
  /** The webhook endpoints (admin/*-webhook-*): the Webhooks page and its buttons. */
  webhooks: {
    list: { webhook: ['read'] },
    show: { webhook: ['read'] },
    create: { webhook: ['create'] },
    edit: { webhook: ['update'] },
    delete: { webhook: ['delete'] },
  },
  /** The registered OAuth clients (admin/*-oauth-client*): the Applications page and its buttons. */
  applications: {
    list: { oauthClient: ['read'] },
    show: { oauthClient: ['read'] },
    create: { oauthClient: ['create'] },
    edit: { oauthClient: ['update'] },
    delete: { oauthClient: ['delete'] },
  },
  organizations: {
    list: { organization: ['list'] },
    show: { organization: ['list'] },
    create: { organization: ['manage'] },
    manage: { organization: ['manage'] },
  },
};

/** True when a user with this role text may do `action` on `resource` in the console. Unknown pairs: no. */
export function canAccessWithRole(roleText: string | null | undefined, resource: string, action: string): boolean {
  const request = ACTIONS[resource]?.[action];
  if (!request || !roleText) return false;
  return authorizeRoles(roleText, ADMIN_ROLES, request).success;
}

/** spec §9: the admin role list; a comma-separated role text is admin when any of its names is. */
export function isAdminRole(roleText: string | null | undefined): boolean {
  if (!roleText) return false;
  const names = roleNames(roleText);
  return ADMIN_ROLE_NAMES.some((admin) => names.includes(admin));
}
