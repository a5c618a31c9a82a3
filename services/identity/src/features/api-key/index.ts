import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { apiKeyRoutes } from './api-key.routes';

/**
 * The API key feature's route table (better-auth's api-key plugin paths):
 *
 *   api-key.routes   api-key/create · api-key/get · api-key/list · api-key/update · api-key/delete · api-key/verify
 *
 * It also plugs into session resolution (src/http/require-session.ts: a key in the configured header stands for
 * its owner's session) and the service credential (src/http/service-auth.ts: keys with `service: ['act']`).
 */
export async function apiKeyFeature(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(apiKeyRoutes, ctx);
}
