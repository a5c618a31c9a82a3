import { operationIdOf, withOperationIds } from './openapi-operation-ids';

describe('operationIds of the OpenAPI document', () => {
  it('are the path in camelCase, a parameter as By<Name>', () => {
    expect(operationIdOf('/sign-in/email')).toBe('signInEmail');
    expect(operationIdOf('/admin/organization/add-team-member')).toBe('adminOrganizationAddTeamMember');
    expect(operationIdOf('/reset-password/{token}')).toBe('resetPasswordByToken');
    expect(operationIdOf('/health/live')).toBe('healthLive');
    expect(operationIdOf('/callback/{providerId}', 'POST')).toBe('callbackByProviderIdPost');
  });

  it('add the method only where a path has several operations, keep a route own id, and refuse duplicates', () => {
    const paths = {
      '/ok': { get: {} },
      '/callback/{id}': { get: {}, post: {} },
      '/custom': { post: { operationId: 'mine' } },
    } as Record<string, Record<string, { operationId?: string }>>;
    withOperationIds(paths);
    expect(paths['/ok'].get.operationId).toBe('ok');
    expect(paths['/callback/{id}'].get.operationId).toBe('callbackByIdGet');
    expect(paths['/callback/{id}'].post.operationId).toBe('callbackByIdPost');
    expect(paths['/custom'].post.operationId).toBe('mine');
    expect(() => withOperationIds({ '/a-b': { get: {} }, '/a/b': { get: {} } })).toThrow(
      /GET \/a-b and GET \/a\/b have the same operationId aB/,
    );
  });
});
