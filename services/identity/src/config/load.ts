import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { join } from 'node:path';
import { Value } from 'typebox/value';
import { parse as parseYaml } from 'yaml';
import {
  ADMIN_DEFAULT_ROLES,
  ADMIN_STATEMENTS,
  buildRoles,
  ORGANIZATION_DEFAULT_ROLES,
  ORGANIZATION_STATEMENTS,
  type Permissions,
  type Statements,
} from '../access';
import { parseAllowEntry } from '../shared/target-policy';
import { DEVELOPMENT_SECRET, defaultConfig } from './defaults';
import { ENV_SETTINGS, type EnvSetting } from './env-settings';
import { finishHostedPages } from './hosted-pages';
import { finishOidcProvider } from './oidc-provider';
import { finishPasskey } from './passkey';
import { type Config, ConfigSchema } from './schema';
import { finishSocial } from './social';

/** A configuration problem; the message names the setting. The process stops on it at start. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

type Env = Record<string, string | undefined>;
type Plain = Record<string, unknown>;
type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };
export type ConfigOverrides = DeepPartial<Config>;

/**
 * defaults ← CONFIG_FILE ← environment ← overrides, then validated as a whole.
 * Env wins over the file so a deployment can patch one value without editing the file.
 */
export function loadConfig(env: Env = process.env, overrides: ConfigOverrides = {}): Config {
  const merged = defaultConfig() as unknown as Plain;
  const origin = new Map<string, string>();
  if (env.CONFIG_FILE) deepMerge(merged, readConfigFile(env.CONFIG_FILE), origin, `CONFIG_FILE (${env.CONFIG_FILE})`);
  for (const setting of ENV_SETTINGS) {
    const raw = env[setting.name];
    if (raw === undefined || raw === '' || !setting.path) continue;
    setPath(merged, setting.path, parseEnv(setting, raw));
    origin.set(setting.path, setting.name);
  }
  if (env.AUTH_SECRET) merged.secretIsDevelopmentDefault = false;
  deepMerge(merged, overrides as Plain, origin, 'overrides');
  // The drain only helps behind a load balancer; on a laptop (and with the embedded database, whose own exit hook
  // stops it at once) SIGTERM and Ctrl-C should stop at once.
  if (!origin.has('shutdownDrainMs') && merged.env !== 'production') merged.shutdownDrainMs = 0;
  const config = validate(merged, origin);
  // The outbox lives in DATA_DIR unless it is set itself (README: DATA_DIR holds the database and the outbox).
  if (!origin.has('mail.outboxDir')) config.mail.outboxDir = join(config.dataDir, 'outbox');
  const publicUrlSet = origin.has('publicUrl');
  if (!publicUrlSet) config.publicUrl = listenOrigin(config);
  return finish(config, env, publicUrlSet);
}

/**
 * The origin a browser on this machine reaches the service at: `PORT=3100 make run` gives links, origin checks
 * and the console on http://localhost:3100. A wildcard or loopback listen address is reached as `localhost`.
 */
function listenOrigin(config: Config): string {
  if (config.port === 0)
    throw new ConfigError('PUBLIC_URL: required when PORT is 0 (the port is only chosen at listen)');
  const host = config.host.trim().replace(/^\[|\]$/g, '');
  const local =
    host === '' || host === 'localhost' || /^(0\.0\.0\.0|::|::1|127(\.\d+){3}|::ffff:127(\.\d+){3})$/.test(host);
  const name = local ? 'localhost' : isIP(host) === 6 ? `[${host}]` : host;
  return `http://${name}:${config.port}`;
}

function readConfigFile(path: string): Plain {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    throw new ConfigError(`CONFIG_FILE: cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    const data = path.endsWith('.json') ? JSON.parse(text) : parseYaml(text);
    if (data === null || typeof data !== 'object' || Array.isArray(data)) throw new Error('not an object');
    return data as Plain;
  } catch (e) {
    throw new ConfigError(`CONFIG_FILE: ${path} is not a valid YAML/JSON object: ${(e as Error).message}`);
  }
}

function parseEnv(setting: EnvSetting, raw: string): unknown {
  const bad = (why: string) => new ConfigError(`${setting.name}=${JSON.stringify(raw)}: ${why}`);
  switch (setting.parse) {
    case 'int':
      if (!/^\d+$/.test(raw)) throw bad('expected a whole number');
      return Number(raw);
    case 'bool':
      if (/^(true|1|yes|on)$/i.test(raw)) return true;
      if (/^(false|0|no|off)$/i.test(raw)) return false;
      throw bad('expected true or false');
    case 'url':
      try {
        new URL(raw);
        return raw;
      } catch {
        throw bad('expected a URL');
      }
    case 'origin':
      return toOrigin(raw, bad);
    case 'list':
      return raw
        .split(',')
        .map((o) => o.trim())
        .filter(Boolean)
        .map((o) => toOrigin(o, bad));
    case 'ints': {
      const values = raw.split(',').map((v) => v.trim());
      if (values.some((v) => !/^\d+$/.test(v))) throw bad('expected comma-separated whole numbers');
      return values.map(Number);
    }
    case 'csv':
      return raw
        .split(',')
        .map((v) => v.trim())
        .filter(Boolean);
    case 'trustProxy':
      if (/^(false|0)$/i.test(raw)) return false;
      if (/^\d+$/.test(raw)) return Number(raw);
      return raw
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
    case 'path':
      return raw.length > 1 ? raw.replace(/\/+$/, '') : raw;
    default:
      return raw;
  }
}

/** An origin is scheme://host[:port], no path; `https://*.example.com` wildcards are allowed in lists. */
function toOrigin(raw: string, bad: (why: string) => Error): string {
  const wildcard = raw.includes('://*.');
  let url: URL;
  try {
    url = new URL(wildcard ? raw.replace('://*.', '://wildcard.') : raw);
  } catch {
    throw bad('expected an origin such as https://app.example.com');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad('only http and https origins');
  if (url.username || url.password || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash)
    throw bad('an origin has no path, query, fragment or credentials');
  return wildcard ? url.origin.replace('://wildcard.', '://*.') : url.origin;
}

function validate(value: Plain, origin: Map<string, string>): Config {
  const errors = [...Value.Errors(ConfigSchema, value)];
  const first = errors.find((e) => e.keyword !== 'boolean') ?? errors[0];
  if (!first) return value as unknown as Config;
  const path = first.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const extra = first.keyword === 'additionalProperties' ? ` (${JSON.stringify(first.params)})` : '';
  const related = ([p]: [string, string]) => path.startsWith(`${p}.`) || p.startsWith(`${path}.`);
  const source = origin.get(path) ?? [...origin.entries()].find(related)?.[1];
  throw new ConfigError(`${source ? `${source}: ` : ''}setting "${path || '(root)'}" ${first.message}${extra}`);
}

function finish(config: Config, env: Env, publicUrlSet: boolean): Config {
  const bad = (why: string) => new ConfigError(why);
  config.publicUrl = toOrigin(config.publicUrl, (why) => bad(`PUBLIC_URL: ${why}`));
  config.trustedOrigins = [
    ...new Set(config.trustedOrigins.map((o) => toOrigin(o, (w) => bad(`TRUSTED_ORIGINS: ${w}`)))),
  ];
  if (config.password.minLength > config.password.maxLength)
    throw bad('PASSWORD_MIN_LENGTH: setting "password.minLength" is greater than password.maxLength');
  if (config.password.maxLength < 64)
    throw bad('PASSWORD_MAX_LENGTH: setting "password.maxLength" must be at least 64');
  if (config.session.updateAgeSec > config.session.expiresInSec)
    throw bad('SESSION_UPDATE_AGE_SEC: setting "session.updateAgeSec" must not exceed session.expiresInSec');
  if (config.secret === DEVELOPMENT_SECRET) config.secretIsDevelopmentDefault = true;
  if (config.env === 'production' && config.secretIsDevelopmentDefault)
    throw bad('AUTH_SECRET: required in production (a random value of at least 32 characters)');
  if (config.env === 'production' && config.advanced.disableOriginCheck)
    throw bad('ORIGIN_CHECK_DISABLED: the origin check cannot be disabled in production');
  if (config.captcha.provider && !config.captcha.secretKey)
    throw bad('CAPTCHA_SECRET_KEY: setting "captcha.secretKey" is required when captcha.provider is set');
  checkRoles('organization', ORGANIZATION_STATEMENTS, ORGANIZATION_DEFAULT_ROLES, config.organization.roles, [
    ['creatorRole', config.organization.creatorRole],
  ]);
  checkRoles('admin', ADMIN_STATEMENTS, ADMIN_DEFAULT_ROLES, config.admin.roles, [
    ['defaultRole', config.admin.defaultRole],
    ...config.admin.adminRoles.map((r) => ['adminRoles', r] as [string, string]),
  ]);
  finishSocial(config, env, bad);
  finishHostedPages(config, bad);
  finishPasskey(config, bad);
  finishOidcProvider(config, bad);
  for (const entry of config.webhook.allowedTargets)
    try {
      parseAllowEntry(entry);
    } catch (e) {
      throw bad(`WEBHOOK_ALLOWED_TARGETS: ${(e as Error).message}`);
    }
  if (config.env === 'production' && !publicUrlSet)
    throw bad('PUBLIC_URL: required in production (the origin clients reach the service at; links are built from it)');
  // The embedded PostgreSQL is a development convenience, not installed in the production image.
  if (config.env === 'production' && !config.databaseUrl)
    throw bad('DATABASE_URL: required in production (the embedded PostgreSQL is for development only)');
  return config;
}

/** Custom roles name only known resources and actions; the roles other settings name exist. */
function checkRoles(
  feature: string,
  statements: Statements,
  defaults: Record<string, Permissions>,
  custom: Record<string, Permissions>,
  named: Array<[string, string]>,
): void {
  try {
    buildRoles(statements, defaults, custom, `${feature}.roles`);
  } catch (e) {
    throw new ConfigError(`setting "${(e as Error).message}`.replace(/: /, '": '));
  }
  for (const [setting, role] of named)
    if (!Object.hasOwn(defaults, role) && !Object.hasOwn(custom, role))
      throw new ConfigError(`setting "${feature}.${setting}" names the unknown role "${role}"`);
}

function setPath(target: Plain, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    node[key] ??= {};
    node = node[key] as Plain;
  }
  node[keys[keys.length - 1]] = value;
}

function deepMerge(target: Plain, source: Plain, origin: Map<string, string>, label: string, prefix = ''): void {
  for (const [key, value] of Object.entries(source)) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    const current = target[key];
    const isObject = (v: unknown): v is Plain => v !== null && typeof v === 'object' && !Array.isArray(v);
    if (isObject(value) && isObject(current)) deepMerge(current, value, origin, label, path);
    else {
      target[key] = value;
      origin.set(path, label);
    }
  }
}
