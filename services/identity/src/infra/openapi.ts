import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import { type Components, collectComponents, documentedSchema } from './openapi-components';
import { withOperationIds } from './openapi-operation-ids';

export const docsPath = (config: Config): string => `${config.basePath}/reference`;

type Json = Record<string, unknown>;

/** The repository's LICENSE: proprietary, all rights reserved (package.json: UNLICENSED). */
const LICENSE = { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' };

const hidden = (schema: Json | undefined) =>
  schema?.hide === true || (Array.isArray(schema?.tags) && schema.tags.includes('X-HIDDEN'));

/**
 * The route schemas are the single source of the OpenAPI document. Paths are relative to the
 * `servers` URL, the base path (so a generated client joins them correctly): generated clients use baseUrl `<origin><basePath>`.
 * The document is shaped for client generators here, in one place: the shared schemas (those with an `$id`) are
 * named components (openapi-components.ts) and every operation has an operationId (openapi-operation-ids.ts).
 */
export async function registerOpenApi(app: FastifyInstance, config: Config): Promise<void> {
  // Filled as the routes are registered (before the document is first built, after ready).
  const components: Components = new Map();
  const schemas: Record<string, unknown> = {};
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Json | undefined;
    if (!schema || hidden(schema)) return;
    collectComponents(schema, components);
    for (const [name, { body }] of components) schemas[name] = body;
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Identity service API',
        version: '0.1.0',
        description:
          'Accounts, sign-in, sessions, organizations and administration. Errors answer `{code, message}` with codes from the error catalogue. ' +
          'Any call that needs the database answers 503 `SERVICE_UNAVAILABLE` with a `Retry-After` header (seconds) while the database cannot serve it (stopped, restarting, hung, or no free connection); a retry after that many seconds may pass.',
        license: LICENSE,
      },
      servers: [{ url: config.basePath }],
      components: {
        securitySchemes: {
          sessionCookie: { type: 'apiKey', in: 'cookie', name: `${config.session.cookiePrefix}.session_token` },
          bearer: { type: 'http', scheme: 'bearer' },
          apiKey: { type: 'apiKey', in: 'header', name: config.apiKey.header },
        },
        schemas: schemas as never,
      },
      security: [{ sessionCookie: [] }, { bearer: [] }, { apiKey: [] }],
    },
    // A route without a schema (the hosted pages' files) is left as it is: it is hidden from the document anyway.
    transform: ({ schema, url }) => ({ schema: (schema ? documentedSchema(schema as Json) : schema) as never, url }),
    transformObject: (built) => {
      // A plain copy: one object shared by several operations would be written as YAML anchors and aliases.
      const document = JSON.parse(JSON.stringify((built as { openapiObject: Json }).openapiObject)) as {
        paths?: Record<string, Json>;
        components?: { schemas?: Record<string, unknown> };
      };
      withOperationIds(document.paths ?? {});
      const named = document.components?.schemas;
      if (named)
        document.components!.schemas = Object.fromEntries(
          Object.keys(named)
            .sort()
            .map((name) => [name, named[name]]),
        );
      return document as never;
    },
  });
  await app.register(swaggerUi, { routePrefix: docsPath(config), staticCSP: true });
}
