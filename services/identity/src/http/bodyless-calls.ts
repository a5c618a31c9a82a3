import type {
  FastifyInstance,
  onRequestHookHandler,
  onSendHookHandler,
  preValidationHookHandler,
  RouteOptions,
} from 'fastify';
import { ApiError } from '../errors';
import { fromValidation } from '../errors/handler';
import type { Validation } from '../infra/validation';

/**
 * POST routes that only read: a GET standing for one of them (below) runs it. Paths under the base path.
 * test/api/security/bodyless-calls.test.ts checks each is a registered POST route.
 */
export const READS_OVER_POST = ['/admin/has-permission', '/organization/has-permission'] as const;

/**
 * spec §7: the published client sends POST when the call has a body and GET otherwise, except for the paths it
 * pins to POST (sign-out, revoke-sessions, revoke-other-sessions, delete-user, admin/impersonate-user,
 * admin/stop-impersonating). So `admin.hasPermission({})` arrives as `GET /admin/has-permission`.
 *
 * Every POST-only route therefore also answers GET, as that POST with an empty body `{}`: the route's own hooks
 * run, then its body schema judges `{}` (the route's own validation error), then its preHandlers (a missing
 * session answers as it would on POST). Past that point a GET never changes anything: it runs the handler only
 * for the routes in READS_OVER_POST, and answers every other route 405 METHOD_NOT_ALLOWED (`Allow: POST`), since
 * a GET skips the origin check and can be triggered cross-site (a link, an image), so it must not act.
 *
 * The twin GET routes are hidden from the OpenAPI document: they are the POST operation, reached by another method.
 */
export function registerBodylessCalls(app: FastifyInstance, validation: Validation, basePath: string): void {
  const reads = new Set<string>(READS_OVER_POST.map((path) => `${basePath}${path}`));
  app.addHook('onRoute', function (route) {
    if (route.method !== 'POST' || !route.url.startsWith(`${basePath}/`)) return;
    // After the plugin that declares the route has declared the rest: a route of both methods (the OAuth callback)
    // may declare its GET after its POST.
    this.after((error) => {
      if (error) throw error;
      if (!this.hasRoute({ method: 'GET', url: route.url })) addTwin(this, route as DeclaredRoute);
    });
  });

  function addTwin(scope: FastifyInstance, route: DeclaredRoute): void {
    const { body, ...schema } = (route.schema ?? {}) as { body?: object };
    const check = body ? validation.compileBody(body) : null;
    // Set before any preValidation hook (captcha reads the body there), judged after the route's own, as on POST.
    const emptyBody: onRequestHookHandler = (request, _reply, done) => {
      request.body = {};
      done();
    };
    const judgeBody: preValidationHookHandler = (request, _reply, done) =>
      done(check && !check(request.body) ? fromValidation(check.errors ?? [], 'body') : undefined);
    scope.route({
      ...route,
      method: 'GET',
      url: route.routePath,
      path: route.routePath,
      exposeHeadRoute: false,
      schema: { ...schema, hide: true },
      onRequest: [...list(route.onRequest), emptyBody],
      preValidation: [...list(route.preValidation), judgeBody],
      onSend: [...list(route.onSend), allowPost],
      handler: reads.has(route.url) ? route.handler : refuse,
    } as RouteOptions);
  }
}

/** Route options as onRoute sees them: `routePath` is the path without the scope's prefix. */
type DeclaredRoute = RouteOptions & { routePath: string };

const list = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : ([] as T[]).concat(value));

async function refuse(): Promise<never> {
  throw new ApiError('METHOD_NOT_ALLOWED');
}

const allowPost: onSendHookHandler = (_request, reply, payload, done) => {
  if (reply.statusCode === 405) reply.header('allow', 'POST');
  done(null, payload);
};
