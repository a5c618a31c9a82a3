import type { Permissions } from './model';

/** The API key permission that makes a key a service credential (server-only routes). */
export const SERVICE_PERMISSION: Permissions = { service: ['act'] };
