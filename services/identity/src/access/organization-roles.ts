import type { Permissions, Statements } from './model';

/** spec §6 "Organization roles": what exists in an organization; `audit: read` is the organization's audit trail (docs/audit.md). */
export const ORGANIZATION_STATEMENTS = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  audit: ['read'],
} as const satisfies Statements;

export type OrganizationResource = keyof typeof ORGANIZATION_STATEMENTS;

const OWNER = {
  organization: ['update', 'delete'],
  member: ['create', 'update', 'delete'],
  invitation: ['create', 'cancel'],
  team: ['create', 'update', 'delete'],
  audit: ['read'],
} as const satisfies Permissions;

/** spec §6 table: owner all; admin the same except organization delete; member nothing. */
export const ORGANIZATION_DEFAULT_ROLES: Readonly<Record<string, Permissions>> = {
  owner: OWNER,
  admin: { ...OWNER, organization: ['update'] },
  member: {},
};

/** spec §9: the creator's role. */
export const ORGANIZATION_CREATOR_ROLE = 'owner';
