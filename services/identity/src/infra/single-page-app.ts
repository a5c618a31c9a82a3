import { readdirSync } from 'node:fs';
import fastifyStatic from '@fastify/static';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../errors';

/** A built single-page app (vite's output) served under a prefix: the console, the hosted pages. */
export interface SinglePageApp {
  /** The prefix the scope is registered at (`/console`, `/auth`). */
  prefix: string;
  /** The built files. */
  root: string;
  /** Files the service answers itself rather than from the build (the pages' config.json). */
  ownFiles?: string[];
  /** Answers a page: the app's index.html, which routes on the client. */
  sendIndex(request: FastifyRequest, reply: FastifyReply): FastifyReply | Promise<FastifyReply>;
}

/** Hashed vite assets never change: a year, immutable. Everything else (index.html) is revalidated every time. */
const cacheControl = (file: string) =>
  /[/\\]assets[/\\]/.test(file) ? 'public, max-age=31536000, immutable' : 'no-cache';

/** A page's path segment: a route name or an id (letters, digits, `-`, `_`). Files have a dot; pages never do. */
const PAGE_SEGMENT = /^[A-Za-z0-9_-]+$/;

/**
 * Whether `url` (under `prefix`) can be a page of the app, so its index.html answers it: plain segments only (a
 * trailing slash allowed), the first not one of the build's directories (`assets`). Anything else names a file,
 * and a file that is not served is a 404.
 */
export function isPagePath(url: string, prefix: string, directories: ReadonlySet<string>): boolean {
  const path = url.split('?')[0];
  if (!path.startsWith(`${prefix}/`)) return false;
  const segments = path.slice(prefix.length + 1).split('/');
  if (segments.length > 1 && segments.at(-1) === '') segments.pop();
  if (segments.length === 1 && segments[0] === '') return true;
  return !directories.has(segments[0]) && segments.every((s) => PAGE_SEGMENT.test(s));
}

/**
 * A refusal of the file server (@fastify/static and the send library under it), carried as an HTTP error: a path
 * outside the root or spelled in a form it does not serve (dot segments, encoded separators, backslashes, `//`,
 * another letter case), a dotfile, a directory, a name it cannot open (too long). Each means "no such file here".
 */
function refusedPath(error: FastifyError & { status?: number }): boolean {
  if (error instanceof ApiError) return false;
  const code = error.code ?? '';
  if (code.startsWith('FST_')) return code === 'FST_STATIC_FORBIDDEN_PATH';
  const status = error.statusCode ?? error.status;
  return status === 400 || status === 403 || status === 404;
}

/**
 * Serves `app` in `scope` (a plugin registered at `app.prefix`): its built files, and index.html for every page
 * path (an SPA: the app routes on the client), for GET and HEAD alike. A path that names no served file answers
 * the catalogue's NOT_FOUND like any unknown path, whatever the file server's reason: never its own 403, which the
 * error handler would take for a fault (a 500 and an error-level log line anyone could write at will). Ranges are
 * not served (the files are small; an unsatisfiable one would be another status outside the catalogue); a failed
 * precondition (`If-Match`, `If-Unmodified-Since`) answers PRECONDITION_FAILED.
 */
export async function serveSinglePageApp(scope: FastifyInstance, app: SinglePageApp): Promise<void> {
  const directories = new Set(
    readdirSync(app.root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name),
  );
  const ownFiles = new Set(app.ownFiles ?? []);
  scope.setErrorHandler((error: FastifyError & { status?: number }) => {
    if (refusedPath(error)) throw new ApiError('NOT_FOUND');
    if (!(error instanceof ApiError) && !error.code?.startsWith('FST_') && (error.statusCode ?? error.status) === 412)
      throw new ApiError('PRECONDITION_FAILED');
    throw error; // the service's own handler (errors/handler.ts)
  });
  await scope.register(fastifyStatic, {
    root: app.root,
    prefix: '/',
    decorateReply: false,
    index: false,
    cacheControl: false,
    acceptRanges: false,
    dotfiles: 'deny',
    allowedPath: (pathName) => !ownFiles.has(pathName),
    setHeaders: (reply, file) => reply.header('cache-control', cacheControl(file)),
  });
  scope.setNotFoundHandler((request, reply) => {
    const read = request.method === 'GET' || request.method === 'HEAD';
    if (read && isPagePath(request.url, app.prefix, directories)) return app.sendIndex(request, reply);
    throw new ApiError('NOT_FOUND');
  });
}
