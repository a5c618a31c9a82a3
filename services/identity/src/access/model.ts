/**
 * The access-control model (docs/SPEC.md §6 "Access-control model"): roles are built from resources and
 * actions; a check asks for actions on resources with AND or OR logic and answers either success or why not.
 * Pure: no I/O, no framework, so the console can reuse it.
 */

/** Every resource a feature knows, with the actions that exist on it. */
export type Statements = Readonly<Record<string, readonly string[]>>;

/** What a role grants, or what a check asks for: actions per resource. */
export type Permissions = Readonly<Record<string, readonly string[]>>;

/** AND: every requested action on every requested resource. OR: any one of them. */
export type Connector = 'AND' | 'OR';

export type Refusal = 'resource-not-allowed' | 'unauthorized';

export type AccessResult = { success: true } | { success: false; reason: Refusal; resource: string; error: string };

const GRANTED: AccessResult = { success: true };

function refuse(reason: Refusal, resource: string): AccessResult {
  const error =
    reason === 'resource-not-allowed'
      ? `You are not allowed to access resource: ${resource}`
      : `unauthorized to access resource "${resource}"`;
  return { success: false, reason, resource, error };
}

/** A role: the actions it grants per resource. */
export class Role {
  constructor(readonly grants: Permissions) {}

  authorize(request: Permissions, connector: Connector = 'AND'): AccessResult {
    let firstRefusal: AccessResult | null = null;
    for (const [resource, actions] of Object.entries(request)) {
      const granted = this.grants[resource];
      const refusal = !granted
        ? refuse('resource-not-allowed', resource)
        : actionsRefusal(granted, actions, resource, connector);
      if (!refusal && connector === 'OR') return GRANTED;
      if (refusal && connector === 'AND') return refusal;
      firstRefusal ??= refusal;
    }
    return firstRefusal ?? GRANTED;
  }
}

function actionsRefusal(
  granted: readonly string[],
  actions: readonly string[],
  resource: string,
  connector: Connector,
): AccessResult | null {
  const ok = connector === 'OR' ? actions.some((a) => granted.includes(a)) : actions.every((a) => granted.includes(a));
  return ok && actions.length > 0 ? null : refuse('unauthorized', resource);
}

/** True when a request names at least one action (spec §8: "invalid permission check. no permission(s) were passed."). */
export function hasAnyPermission(request: Permissions | undefined | null): request is Permissions {
  return !!request && Object.values(request).some((actions) => Array.isArray(actions) && actions.length > 0);
}

/** Names in a role text: "admin, member" → ['admin', 'member'] (spec §3: several comma-separated roles). */
export function roleNames(roleText: string | readonly string[]): string[] {
  const list = typeof roleText === 'string' ? roleText.split(',') : roleText;
  return list.map((r) => r.trim()).filter(Boolean);
}

/** spec §6: any of the member's roles that grants is enough. Unknown role names grant nothing. */
export function authorizeRoles(
  roleText: string | readonly string[],
  roles: Readonly<Record<string, Role>>,
  request: Permissions,
  connector: Connector = 'AND',
): AccessResult {
  let refusal: AccessResult | null = null;
  for (const name of roleNames(roleText)) {
    const role = Object.hasOwn(roles, name) ? roles[name] : undefined;
    if (!role) continue;
    const result = role.authorize(request, connector);
    if (result.success) return result;
    refusal ??= result;
  }
  return refusal ?? refuse('resource-not-allowed', Object.keys(request)[0] ?? '');
}

export class AccessConfigError extends Error {}

/**
 * The role table a feature runs with: its defaults, with custom roles from the configuration added or replacing
 * a default of the same name. A custom role that names an unknown resource or action stops the start.
 */
export function buildRoles(
  statements: Statements,
  defaults: Readonly<Record<string, Permissions>>,
  custom: Readonly<Record<string, Permissions>> = {},
  setting = 'roles',
): Record<string, Role> {
  for (const [name, grants] of Object.entries(custom)) {
    for (const [resource, actions] of Object.entries(grants)) {
      const known = statements[resource];
      if (!known) throw new AccessConfigError(`${setting}.${name}: unknown resource "${resource}"`);
      const unknown = actions.filter((a) => !known.includes(a));
      if (unknown.length) throw new AccessConfigError(`${setting}.${name}.${resource}: unknown action "${unknown[0]}"`);
    }
  }
  const table: Record<string, Role> = Object.create(null);
  for (const [name, grants] of Object.entries({ ...defaults, ...custom })) table[name] = new Role(grants);
  return table;
}
