import { Type } from 'typebox';
import { type Components, collectComponents, documentedSchema } from './openapi-components';

const User = Type.Object({ id: Type.String(), name: Type.String() }, { $id: 'User', title: 'User' });
const WithUser = Type.Object({ user: User, note: Type.String() }, { $id: 'WithUser', title: 'WithUser' });

describe('named components of the OpenAPI document', () => {
  it('a named schema becomes a reference wherever it is, and one component (nested names referenced too)', () => {
    const route = {
      summary: 's',
      body: Type.Object({ who: User }),
      querystring: Type.Object({ id: Type.String() }, { $id: 'Query' }),
      response: { 200: Type.Union([WithUser, Type.Null()]), '4xx': User },
    };
    const components: Components = new Map();
    collectComponents(route, components);
    expect([...components.keys()].sort()).toEqual(['User', 'WithUser']); // an expanded querystring stays inline
    expect(components.get('WithUser')?.body).toMatchObject({
      title: 'WithUser',
      properties: { user: { $ref: '#/components/schemas/User' }, note: { type: 'string' } },
    });
    expect(components.get('WithUser')?.body).not.toHaveProperty('$id');
    const documented = documentedSchema(route) as typeof route;
    expect(documented.summary).toBe('s');
    expect(documented.body.properties.who).toEqual({ $ref: '#/components/schemas/User' });
    expect(documented.querystring).not.toHaveProperty('$id');
    expect(documented.querystring.properties.id).toEqual({ type: 'string' });
    expect(documented.response['4xx']).toEqual({ $ref: '#/components/schemas/User' });
    expect(documented.response[200].anyOf).toEqual([{ $ref: '#/components/schemas/WithUser' }, { type: 'null' }]);
    // The route schemas themselves (validation, serialization) are left untouched.
    expect(route.body.properties.who).toBe(User);
    expect((User as { $id?: string }).$id).toBe('User');
  });

  it('the same name for two different schemas is refused; the same schema twice is one component', () => {
    const components: Components = new Map();
    collectComponents({ response: { 200: User } }, components);
    collectComponents({ response: { 200: Type.Object({ a: User, b: User }) } }, components);
    collectComponents(
      { response: { 200: Type.Object({ id: Type.String(), name: Type.String() }, { $id: 'User', title: 'User' }) } },
      components,
    );
    expect(components.size).toBe(1);
    const other = Type.Object({ id: Type.Integer() }, { $id: 'User', title: 'User' });
    expect(() => collectComponents({ response: { 200: other } }, components)).toThrow(/two different schemas .*"User"/);
  });
});
