import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';

export const docsPath = (config: Config): string => `${config.basePath}/reference`;

/**
 * The route schemas are the single source of the OpenAPI document (DESIGN §3). Paths are relative to the
 * `servers` URL, the base path (ECOSYSTEM gotcha 15): generated clients use baseUrl `<origin><basePath>`.
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Identity service API',
        version: '0.1.0',
        description:
          'Accounts, sign-in, sessions, organizations and administration. Errors answer `{code, message}` with codes from the error catalogue.',
      },
      servers: [{ url: config.basePath }],
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: `${config.session.cookiePrefix}.session_token` },
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: config.apiKey.header },
        },
      },
      security: [{ sessionCookie: [] }, { bearer: [] }, { apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: docsPath(config), staticCSP: true });
}
