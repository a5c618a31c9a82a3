export * from './admin-roles';
export * from './model';
export * from './organization-roles';
