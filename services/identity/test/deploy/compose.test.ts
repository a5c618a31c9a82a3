import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { composeDefault, KNOWN_ENV, ROOT, read, readYaml } from './repo';

interface Service {
  image?: string;
  build?: { context: string; dockerfile: string; args?: Record<string, string> };
  volumes?: string[];
  ports?: string[];
  command?: string[];
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test?: string[] | string; disable?: boolean };
  profiles?: string[];
  stop_grace_period?: string;
}

const compose = readYaml<{ services: Record<string, Service> }>('docker-compose.yml');
const services = compose.services;
const APP = ['migrate', 'identity', 'worker'];
const scripts = JSON.parse(read('services/identity/package.json')).scripts;

describe('docker-compose.yml', () => {
  it('has the whole system', () => {
    expect(Object.keys(services).sort()).toEqual(
      ['console', 'identity', 'mailpit', 'migrate', 'postgres', 'redis', 'worker'].sort(),
    );
  });

  it.each(Object.keys(services))('%s: the image is pinned to a tag other than latest', (name) => {
    const image = composeDefault(services[name].image ?? '');
    const match = /^(?<repo>[a-z0-9./_-]+):(?<tag>[\w.-]+)$/.exec(image);
    expect(match?.groups?.tag).toBeDefined();
    expect(match?.groups?.tag).not.toBe('latest');
  });

  it('identity, worker and migrate run one image (built from deploy/Dockerfile) with the package scripts', () => {
    expect(new Set(APP.map((s) => services[s].image)).size).toBe(1);
    for (const s of APP) expect(services[s].build).toEqual({ context: '.', dockerfile: 'deploy/Dockerfile' });
    expect(services.identity.command).toBeUndefined(); // the image's CMD is the API
    expect(services.worker.command?.join(' ')).toBe(scripts.worker);
    expect(services.migrate.command?.join(' ')).toBe(scripts.migrate);
  });

  it('health-checked start order: engines healthy, migrations done, then API and worker', () => {
    for (const name of ['postgres', 'redis', 'identity', 'mailpit', 'console'])
      expect(services[name].healthcheck?.test).toBeDefined();
    // No HTTP listener in these two: the image's liveness HEALTHCHECK would always fail, so it is switched off.
    expect(services.worker.healthcheck).toEqual({ disable: true });
    expect(services.migrate.healthcheck).toEqual({ disable: true });
    expect(services.migrate.depends_on).toEqual({
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    for (const s of ['identity', 'worker'])
      expect(services[s].depends_on).toMatchObject({
        postgres: { condition: 'service_healthy' },
        redis: { condition: 'service_healthy' },
        migrate: { condition: 'service_completed_successfully' },
      });
    expect(String(services.identity.healthcheck?.test)).toContain('/api/auth/health/ready');
  });

  it('redis is append-only and never evicts; the console waits behind a profile', () => {
    const redis = services.redis.command?.join(' ');
    expect(redis).toContain('--appendonly yes');
    expect(redis).toContain('--maxmemory-policy noeviction');
    expect(services.console.profiles).toEqual(['console']);
    expect(services.console.build?.dockerfile).toBe('deploy/console.Dockerfile');
  });

  it('the app services get only variables the service reads, mail goes to mailpit, no migration on start', () => {
    for (const s of APP) {
      const env = services[s].environment ?? {};
      for (const name of Object.keys(env)) expect(KNOWN_ENV).toContain(name);
      expect(env).toMatchObject({ NODE_ENV: 'production', MIGRATE_ON_START: 'false', SMTP_URL: 'smtp://mailpit:1025' });
    }
    expect(services.identity.stop_grace_period).toBe('30s');
    expect(services.worker.stop_grace_period).toBe('30s');
  });

  it('the environment compose builds is a valid production configuration once AUTH_SECRET is set', () => {
    const env = Object.fromEntries(
      Object.entries(services.identity.environment ?? {}).map(([k, v]) => [k, composeDefault(String(v))]),
    );
    expect(env.AUTH_SECRET).toBe(''); // `${AUTH_SECRET:?…}`: compose refuses to start without it
    env.AUTH_SECRET = randomBytes(36).toString('base64');
    const config = loadConfig(env);
    expect(config).toMatchObject({ env: 'production', port: 3000, redisUrl: 'redis://redis:6379/0' });
    expect(config.databaseUrl).toBe('postgres://identity:identity@postgres:5432/identity');
  });
});

describe('docker-compose.yml: the console profile', () => {
  const identityEnv = Object.fromEntries(
    Object.entries(services.identity.environment ?? {}).map(([k, v]) => [k, composeDefault(String(v))]),
  );
  const basePath = loadConfig({ ...identityEnv, AUTH_SECRET: 's'.repeat(40) }).basePath;
  const mounts = (services.console.volumes ?? []).map((v) => {
    const [source, target] = v.split(':');
    return { source: source.replace(/^\.\//, ''), target };
  });
  const proxyConf = mounts.find((m) => m.target.startsWith('/etc/nginx/console.d/'));

  it.each(Object.keys(services))('%s: what it builds from exists', (name) => {
    const build = services[name].build;
    if (!build) return expect(services[name].image).toBeTruthy();
    expect(existsSync(join(ROOT, build.context, build.dockerfile))).toBe(true);
    for (const { source } of mounts) expect(existsSync(join(ROOT, source))).toBe(true);
  });

  it('the console is built to call the API on its own origin, at the base path', () => {
    expect(services.console.build?.args?.VITE_API_URL).toBe(basePath);
  });

  it('the console is built to name the product as the hosted pages do (HOSTED_PAGES_PRODUCT_NAME, its default)', () => {
    expect(services.console.build?.args?.VITE_PRODUCT_NAME).toMatch(/^\$\{HOSTED_PAGES_PRODUCT_NAME:-[^}]+\}$/);
    expect(composeDefault(services.console.build?.args?.VITE_PRODUCT_NAME ?? '')).toBe(
      loadConfig({ AUTH_SECRET: 's'.repeat(40) }).hostedPages.productName,
    );
    expect(read('deploy/console.Dockerfile')).toMatch(
      /VITE_PRODUCT_NAME="\$VITE_PRODUCT_NAME" npm run build -w console/,
    );
  });

  it("the console's nginx passes the base path to the identity service's port", () => {
    expect(proxyConf?.target).toMatch(/\.conf$/);
    // The image's server block includes that directory.
    expect(read('deploy/nginx/console.conf')).toMatch(/^\s+include \/etc\/nginx\/console\.d\/\*\.conf;$/m);
    expect(read('deploy/console.Dockerfile')).toMatch(/mkdir -p \/etc\/nginx\/console\.d/);
    const conf = read(proxyConf!.source);
    const location = new RegExp(`location ${basePath}/ \\{([^}]*)\\}`).exec(conf)?.[1] ?? '';
    expect(location).toMatch(new RegExp(`proxy_pass http://identity:${identityEnv.PORT};`));
    expect(services.identity.ports?.some((p) => composeDefault(p).endsWith(`:${identityEnv.PORT}`))).toBe(true);
  });

  it("the identity service trusts the console's origin (origin checks and cookies on the console's origin)", () => {
    const consolePort = composeDefault(services.console.ports?.[0] ?? '').split(':')[0];
    const config = loadConfig({ ...identityEnv, AUTH_SECRET: 's'.repeat(40) });
    expect(config.trustedOrigins).toContain(`http://localhost:${consolePort}`);
  });

  it("the console image's CSP names another API origin, and nothing for a path on its own origin", () => {
    const command = /api_origin="\$\((.*?)\)" \\?/.exec(read('deploy/console.Dockerfile'))?.[1];
    expect(command).toBeDefined();
    const origin = (url: string) =>
      execFileSync('sh', ['-c', command!], { env: { PATH: process.env.PATH, VITE_API_URL: url }, encoding: 'utf8' });
    expect(origin('')).toBe('');
    expect(origin('/api/auth')).toBe('');
    expect(origin('https://id.example.com/api/auth')).toBe('https://id.example.com');
    expect(origin('http://localhost:3000/api/auth')).toBe('http://localhost:3000');
  });
});

describe('.env.example', () => {
  const example = read('.env.example');
  const defined = new Set([...example.matchAll(/^([A-Z_][A-Z0-9_]*)=/gm)].map((m) => m[1]));

  it('lists every variable docker-compose.yml reads', () => {
    const used = new Set([...read('docker-compose.yml').matchAll(/(?<!\$)\$\{(\w+)/g)].map((m) => m[1]));
    expect([...used].filter((v) => !defined.has(v))).toEqual([]);
    expect([...defined].filter((v) => !used.has(v))).toEqual([]);
  });

  it('ships no usable AUTH_SECRET and says how to make one', () => {
    expect(example).toMatch(/^AUTH_SECRET=$/m);
    expect(example).toContain('openssl rand');
    expect(read('docker-compose.yml')).toMatch(/AUTH_SECRET: \$\{AUTH_SECRET:\?/);
  });
});
