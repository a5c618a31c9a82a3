import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ConfigError, loadConfig } from './config';
import { type AppContext, createContext } from './context';
import { runMigrations } from './db/migrate';
import { pendingMigrations } from './db/pending-migrations';
import {
  ADMIN_COMMANDS,
  ADMIN_SWITCHES,
  ADMIN_USAGE,
  describeError,
  parseFlags,
  pruneSearchWords,
  readAdminPassword,
  runAdminCommand,
  UsageError,
} from './features/admin';
import { describeResults, runConsistencyChecks } from './features/system';
import { generateOpenApi } from './openapi-document';
import { describeReseal, resealStoredSecrets } from './reseal';

const USAGE = `usage: cli <command>
  migrate            apply pending migrations (DATABASE_URL, or the embedded PostgreSQL)
  migrate:status     name the migrations not applied yet (or say the schema is up to date)
  openapi [file]     write the OpenAPI document (default: ../../openapi.yaml)
  config             print the effective configuration (secrets masked)
  jwks:rotate        retire the JWT signing key and make a new one (the old stays in /jwks until its tokens expire)
  words:prune        drop the search words no user holds any more (after deleting many users; safe while serving)
  events:prune       drop audit events older than AUDIT_RETENTION_DAYS and make the monthly partitions ahead
  check [--json]     report partial states of multi-step operations; exit 3 when any is found
  secrets:reseal [--batch-size N]
                     after an AUTH_SECRET rotation: seal every stored secret again under the current one (the old
                     one still in AUTH_SECRET_PREVIOUS); safe to stop and run again; exit 3 when a value opens with
                     no configured secret
${ADMIN_USAGE}`;

/**
 * The commands whose change running instances learn through Redis: the fences of the sessions they cache (a role,
 * a ban) and the key-rotation notice. The others need no Redis: without REDIS_URL they warn about nothing.
 */
const REACHES_INSTANCES = ['set-role', 'ban', 'unban', 'jwks:rotate'];
const INSTANCES_NOT_TOLD =
  'REDIS_URL is not set: running instances hear of this change only through Redis, so their cached sessions ' +
  '(SESSION_REDIS_CACHE_TTL_SEC) and signing keys (JWT_KEY_REFRESH_SEC) catch up only when those expire';

/** Runs `work` for `command` on a context (no migration), closed afterwards. */
async function withContext<T>(command: string, work: (ctx: AppContext) => Promise<T>): Promise<T> {
  const ctx = await createContext(loadConfig(), {
    migrate: false,
    redisUnsetWarning: REACHES_INSTANCES.includes(command) ? INSTANCES_NOT_TOLD : null,
  });
  try {
    return await work(ctx);
  } finally {
    await ctx.close();
  }
}

async function run(args: string[]): Promise<void> {
  const [command, arg] = args;
  if (ADMIN_COMMANDS.includes(command)) {
    const flags = parseFlags(args.slice(1), ADMIN_SWITCHES);
    // Asked for (or read from standard input) before connecting: a refusal starts no database.
    if (command === 'create-admin') flags.password = await readAdminPassword(flags);
    console.log(
      await withContext(command, (ctx) =>
        runAdminCommand(
          { admin: ctx.features.admin, accounts: ctx.features.account.accounts, config: ctx.config },
          command,
          flags,
        ),
      ),
    );
    return;
  }
  switch (command) {
    case 'migrate':
    case 'migrate:status':
      await withContext(command, async (ctx) => {
        if (command === 'migrate') {
          // The database the context connected to (DATABASE_URL, or the embedded server it started).
          const url = ctx.pool.options.connectionString!;
          const applied = await runMigrations({ url, ...ctx.config.database });
          console.log(applied.length ? `applied: ${applied.join(', ')}` : 'no pending migrations');
        } else {
          const pending = await pendingMigrations(ctx.sql);
          console.log(pending.length ? `pending migrations exist: ${pending.join(', ')}` : 'schema is up to date');
        }
      });
      return;
    case 'jwks:rotate':
      console.log(`new signing key: ${await withContext(command, (ctx) => ctx.features.jwt.keys.rotate())}`);
      return;
    case 'words:prune':
      console.log(`removed ${await withContext(command, (ctx) => pruneSearchWords(ctx.sql))} words no user holds`);
      return;
    case 'events:prune': {
      const result = await withContext(command, (ctx) => ctx.features.audit.retention.prune());
      console.log(
        `audit events before ${result.cutoff}: ${result.dropped.length} partitions dropped` +
          `${result.dropped.length ? ` (${result.dropped.join(', ')})` : ''}, ${result.deleted} events deleted; ` +
          `${result.added} partitions added ahead`,
      );
      return;
    }
    case 'check': {
      const options = args.slice(1);
      const unknown = options.find((option) => option !== '--json');
      if (unknown) throw new UsageError(`check: unknown option ${unknown} (only --json)`);
      const results = await withContext(command, (ctx) =>
        runConsistencyChecks(ctx.sql, { creatorRole: ctx.config.organization.creatorRole }),
      );
      const { found, text } = describeResults(results);
      const checks = results.map((r) => ({ name: r.name, description: r.description, found: r.rows }));
      console.log(options.includes('--json') ? JSON.stringify({ found, checks }, null, 2) : text);
      if (found) process.exitCode = 3;
      return;
    }
    case 'secrets:reseal': {
      const flags = parseFlags(args.slice(1));
      const unknown = Object.keys(flags).find((flag) => flag !== 'batch-size');
      if (unknown) throw new UsageError(`secrets:reseal: unknown option --${unknown} (only --batch-size)`);
      const batchSize = flags['batch-size'] === undefined ? 500 : Number(flags['batch-size']);
      if (!Number.isInteger(batchSize) || batchSize < 1 || batchSize > 10_000)
        throw new UsageError('secrets:reseal: --batch-size takes a whole number from 1 to 10000');
      const counts = await withContext(command, (ctx) => resealStoredSecrets(ctx.features, { batchSize }));
      const { text, unreadable } = describeReseal(counts);
      console.log(text);
      if (unreadable) process.exitCode = 3;
      return;
    }
    case 'openapi': {
      const file = resolve(arg ?? resolve(__dirname, '../../../openapi.yaml'));
      writeFileSync(file, await generateOpenApi());
      console.log(`wrote ${file}`);
      return;
    }
    case 'config': {
      const config = loadConfig();
      const mask = (v?: string) => (v ? `${v.slice(0, 4)}…(${v.length} chars)` : v);
      const providers = Object.fromEntries(
        Object.entries(config.social.providers).map(([id, p]) => [id, { ...p, clientSecret: mask(p.clientSecret) }]),
      );
      const masked = {
        secret: mask(config.secret),
        previousSecrets: config.previousSecrets.map(mask),
        serviceApiKey: mask(config.serviceApiKey),
        captcha: { ...config.captcha, secretKey: mask(config.captcha.secretKey) },
        social: { ...config.social, providers },
        oidcProvider: {
          ...config.oidcProvider,
          clients: config.oidcProvider.clients.map((c) => ({ ...c, client_secret: mask(c.client_secret) })),
        },
      };
      console.log(JSON.stringify({ ...config, ...masked }, null, 2));
      return;
    }
    default:
      console.log(USAGE);
      if (command) process.exitCode = 2;
  }
}

run(process.argv.slice(2)).catch((error) => {
  const known = describeError(error);
  if (known) {
    console.error(known);
    process.exit(2);
  }
  console.error(error instanceof ConfigError ? `Configuration error: ${error.message}` : error);
  process.exit(1);
});
