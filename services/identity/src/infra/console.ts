import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config';
import { ApiError } from '../errors';

/** Where the identity service serves the admin console, when `consoleEnabled`. */
export const CONSOLE_PATH = '/console';

/**
 * The console's HTML may load only its own bundle and talk only to this origin. MUI (emotion) injects <style>
 * elements at run time, hence 'unsafe-inline' for styles only; scripts stay 'self'.
 */
export const CONSOLE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Hashed vite assets never change: a year, immutable. Everything else (index.html) is revalidated every time. */
const cacheControl = (path: string) =>
  /[/\\]assets[/\\]/.test(path) ? 'public, max-age=31536000, immutable' : 'no-cache';

/**
 * The built index.html, made to work under /console: `<base href>` points the bundle's relative asset URLs at
 * /console/, and a meta tag tells the console where the API is (this service's base path, same origin).
 */
export function consoleIndex(html: string, basePath: string): string {
  const head = `<base href="${CONSOLE_PATH}/" />\n    <meta name="identity-api" content="${basePath}" />`;
  const withoutBase = html.replace(/<base\s[^>]*>/i, '');
  if (!/<head>/i.test(withoutBase)) throw new Error('console index.html has no <head>');
  return withoutBase.replace(/<head>/i, `<head>\n    ${head}`);
}

/** Serves the console's static files at /console with an SPA fallback to index.html (off by default). */
export async function registerConsole(app: FastifyInstance, config: Config): Promise<void> {
  if (!config.consoleEnabled) return;
  const root = resolve(config.consoleDir);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile))
    throw new Error(`CONSOLE_DIR: ${root} has no index.html (build the console first: make console)`);
  const index = consoleIndex(readFileSync(indexFile, 'utf8'), config.basePath);
  const sendIndex = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);

  await app.register(
    async (scope) => {
      // "/console" (no slash) would resolve the bundle's relative URLs against "/": send the browser to "/console/".
      scope.get('/', (request, reply) =>
        request.url.split('?')[0] === CONSOLE_PATH ? reply.redirect(`${CONSOLE_PATH}/`, 301) : sendIndex(reply),
      );
      await scope.register(fastifyStatic, {
        root,
        prefix: '/',
        decorateReply: false,
        index: false,
        cacheControl: false,
        dotfiles: 'deny',
        setHeaders: (reply, path) => reply.header('cache-control', cacheControl(path)),
      });
      // SPA fallback: a path without a file extension is a client-side route; a missing file is a 404.
      scope.setNotFoundHandler((request, reply) => {
        const last = request.url.split('?')[0].split('/').pop() ?? '';
        if (request.method === 'GET' && !last.includes('.')) return sendIndex(reply);
        throw new ApiError('NOT_FOUND');
      });
    },
    { prefix: CONSOLE_PATH },
  );
}
