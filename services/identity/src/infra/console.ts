import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Config } from '../config';
import { serveSinglePageApp } from './single-page-app';

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

/** Text as an HTML attribute value (between double quotes). */
const attribute = (text: string) =>
  text.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/**
 * The built index.html, made to work under /console: `<base href>` points the bundle's relative asset URLs at
 * /console/, and meta tags tell the console where the API is (this service's base path, same origin) and the
 * product's name its sign-in screen shows (HOSTED_PAGES_PRODUCT_NAME, as on the hosted pages).
 */
export function consoleIndex(html: string, basePath: string, productName: string): string {
  const head = [
    `<base href="${CONSOLE_PATH}/" />`,
    `<meta name="identity-api" content="${attribute(basePath)}" />`,
    `<meta name="identity-product" content="${attribute(productName)}" />`,
  ].join('\n    ');
  const withoutBase = html.replace(/<base\s[^>]*>/i, '');
  if (!/<head>/i.test(withoutBase)) throw new Error('console index.html has no <head>');
  return withoutBase.replace(/<head>/i, `<head>\n    ${head}`);
}

/**
 * Serves the console's static files at /console with an SPA fallback to index.html (off by default); a path that
 * names no served file is a 404 (single-page-app.ts).
 */
export async function registerConsole(app: FastifyInstance, config: Config): Promise<void> {
  if (!config.consoleEnabled) return;
  const root = resolve(config.consoleDir);
  const indexFile = join(root, 'index.html');
  if (!existsSync(indexFile))
    throw new Error(`CONSOLE_DIR: ${root} has no index.html (build the console first: make console)`);
  const index = consoleIndex(readFileSync(indexFile, 'utf8'), config.basePath, config.hostedPages.productName);
  const sendIndex = (reply: FastifyReply) =>
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(index);

  await app.register(
    async (scope) => {
      // "/console" (no slash) would resolve the bundle's relative URLs against "/": send the browser to "/console/".
      scope.get('/', (request, reply) =>
        request.url.split('?')[0] === CONSOLE_PATH ? reply.redirect(`${CONSOLE_PATH}/`, 301) : sendIndex(reply),
      );
      await serveSinglePageApp(scope, { prefix: CONSOLE_PATH, root, sendIndex: (_request, reply) => sendIndex(reply) });
    },
    { prefix: CONSOLE_PATH },
  );
}
