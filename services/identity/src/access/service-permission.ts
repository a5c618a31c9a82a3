import type { Permissions } from './model';

/** The API key permission that makes a key a service credential (DESIGN §3 server-only routes, issue 9). */
export const SERVICE_PERMISSION: Permissions = { service: ['act'] };
