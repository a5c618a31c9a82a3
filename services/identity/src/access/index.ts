export * from './admin-roles';
export * from './model';
export * from './organization-roles';
export * from './service-permission';
