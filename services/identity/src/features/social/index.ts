import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { accountsRoutes } from './accounts.routes';
import { signInRoutes } from './sign-in.routes';

/**
 * The social feature's route table (spec §7):
 *
 *   sign-in.routes   sign-in/social · callback/:providerId (GET, POST) · link-social
 *   accounts.routes  list-accounts · unlink-account · get-access-token · refresh-token · account-info
 */
export async function socialFeature(app: FastifyInstance, ctx: AppContext): Promise<void> {
  // Form bodies only here, for the form_post callback; every other route still takes JSON only.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_r, body, done) => {
      const fields: Record<string, string> = Object.create(null);
      for (const [key, value] of new URLSearchParams(body as string)) fields[key] = value;
      done(null, fields);
    },
  );
  await app.register(signInRoutes, ctx);
  await app.register(accountsRoutes, ctx);
}
