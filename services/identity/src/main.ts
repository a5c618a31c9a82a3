import { buildApp } from './app';
import { ConfigError, loadConfig } from './config';
import { createContext } from './context';
import { beginDrain } from './http/drain';
import { LISTEN_BACKLOG } from './http/listener-close';
import { startupNote } from './infra/addresses';
import { createLogger, logStartFailure, routeProcessOutput } from './infra/logger';
import { contextFramesOn } from './shared/request-deadline';

const SWEEP_INTERVAL_MS = 10 * 60 * 1000;

/** HTTP entry: loadConfig → createContext → buildApp → listen; graceful close on SIGTERM/SIGINT. */
async function main(): Promise<void> {
  const config = loadConfig();
  // One JSON logger for the whole process: start-up notes, mail notes and request lines, with one redaction.
  const log = createLogger(config);
  routeProcessOutput(log);
  if (config.secretIsDevelopmentDefault)
    log.warn(
      'AUTH_SECRET is not set: using the DEVELOPMENT secret. Cookies and tokens are forgeable. ' +
        'Set AUTH_SECRET to a random value of at least 32 characters before any real use.',
    );
  if (!contextFramesOn())
    log.warn(
      'node runs without --experimental-async-context-frame: request deadlines cost about a third more CPU per ' +
        'request. Start the API as the start script, the image and the chart do (docs/operations.md).',
    );
  const migrate = process.env.MIGRATE_ON_START ? process.env.MIGRATE_ON_START === 'true' : config.env !== 'production';
  const ctx = await createContext(config, { migrate, logger: log });
  const app = await buildApp(ctx, { loggerInstance: log });
  // Expired sessions and tokens are also deleted when presented; the sweep removes the ones nobody presents again.
  const sweep = setInterval(() => {
    ctx
      .sweepExpired()
      .then((removed) => app.log.debug({ removed }, 'expired rows swept'))
      .catch((error) => app.log.warn({ err: error }, 'expiry sweep failed'));
  }, SWEEP_INTERVAL_MS);
  sweep.unref();
  // JWT signing keys: reload every JWT_KEY_REFRESH_SEC and on another instance's rotation notice (Redis).
  await ctx.features.jwt.keys.watch();
  // The outbox relay: mail written by any instance is handed to the queue and checked until it is sent.
  ctx.outbox.start();
  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    clearInterval(sweep);
    // Drain: readiness answers 503 while this instance still serves, so the load balancer stops sending before
    // the listener closes, and every answer carries `Connection: close`, so keep-alive clients leave as soon as
    // they are answered. Then the listener closes (the connections already in its accept queue are served, later
    // attempts refused), idle connections close, and the requests in flight finish.
    const drain = beginDrain(app, ctx.lifecycle, app.log);
    app.log.info({ signal, drainMs: config.shutdownDrainMs }, 'draining');
    await new Promise((done) => setTimeout(done, config.shutdownDrainMs));
    app.log.info({ signal }, 'shutting down');
    await drain.close();
    await ctx.close();
    process.exit(0);
  };
  // This drain and close is the one answer to SIGTERM and SIGINT. The embedded PostgreSQL package (development
  // only) adds its own at import, which stops the server at once and exits 130 while the service still drains.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) process.removeAllListeners(signal);
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
  // The backlog explicitly (Node's default): the drain lowers it to seal the accept queue, and may restore it.
  await app.listen({ port: config.port, host: config.host, backlog: LISTEN_BACKLOG });
  const note = startupNote(config);
  app.log.info(note.fields, note.msg);
}

main().catch((error) => {
  logStartFailure(error, { configError: error instanceof ConfigError });
  process.exit(1);
});
