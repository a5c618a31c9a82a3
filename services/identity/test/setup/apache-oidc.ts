import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './api-process';

/** Debian's Apache httpd and its mod_auth_openidc (packages apache2, libapache2-mod-auth-openidc). */
const APACHE = '/usr/sbin/apache2';
const MODULES = '/usr/lib/apache2/modules';

export interface ApacheOidcOptions {
  /** The provider's discovery document (`…/.well-known/openid-configuration`). */
  discoveryUrl: string;
  clientId: string;
  clientSecret: string;
  /** Requested scopes (default `openid email profile`). */
  scope?: string;
  /** The port to listen on (default: a free one), when the redirect URI must be registered before Apache starts. */
  port?: number;
  /** Extra mod_auth_openidc directives (e.g. `OIDCAuthRequestParams acr_values=…`). */
  directives?: string[];
}

export interface ApacheOidc {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The protected page: it shows the signed-in user's `sub` and `email` claims. */
  protectedUrl: string;
  /** The redirect URI to register at the provider (mod_auth_openidc's own callback, inside the protected path). */
  redirectUri: string;
  /** The URL that ends the Apache session and, through the provider's end-session endpoint, the provider's. */
  logoutUrl(returnTo: string): string;
  /** Where RP-initiated logout returns: register it as a post-logout redirect URI. */
  loggedOutUrl: string;
  errorLog(): string;
  stop(): Promise<void>;
}

/**
 * A real relying party none of our code implements: Apache httpd with mod_auth_openidc protecting `/protected/`,
 * on a free loopback port, configured by a file written here. Apache refuses to run its workers as root, so when
 * the tests run as root the workers run as `www-data` and the folder is readable by it.
 */
/** The redirect URI Apache will use on `port` (to register it before Apache starts). */
export const apacheRedirectUri = (port: number) => `http://127.0.0.1:${port}/protected/redirect_uri`;

export async function startApacheOidc(options: ApacheOidcOptions): Promise<ApacheOidc> {
  const port = options.port ?? (await freePort());
  const origin = `http://127.0.0.1:${port}`;
  const dir = mkdtempSync(join(tmpdir(), 'apache-oidc-'));
  chmodSync(dir, 0o755);
  const docs = join(dir, 'htdocs');
  mkdirSync(join(docs, 'protected'), { recursive: true });
  writeFileSync(join(docs, 'index.html'), '<!doctype html><title>Public</title><p>public page</p>\n');
  writeFileSync(
    join(docs, 'logged-out.html'),
    '<!doctype html><title>Signed out</title><p>signed out of the app</p>\n',
  );
  // Server-side includes echo the claims mod_auth_openidc passes to the page's environment.
  writeFileSync(
    join(docs, 'protected', 'index.shtml'),
    [
      '<!doctype html><title>Protected</title>',
      '<p>sub: <span id="sub"><!--#echo var="OIDC_CLAIM_sub" --></span></p>',
      '<p>email: <span id="email"><!--#echo var="OIDC_CLAIM_email" --></span></p>',
      '',
    ].join('\n'),
  );
  const redirectUri = apacheRedirectUri(port);
  const asRoot = process.getuid?.() === 0;
  const config = [
    `ServerRoot ${dir}`,
    'ServerName 127.0.0.1',
    `Listen 127.0.0.1:${port}`,
    `PidFile ${join(dir, 'httpd.pid')}`,
    `ErrorLog ${join(dir, 'error.log')}`,
    'LogLevel warn auth_openidc:info',
    // (mod_unixd, for User and Group, is compiled in)
    ...['mpm_prefork', 'authz_core', 'authz_user', 'authn_core', 'auth_openidc', 'include', 'mime', 'dir', 'env'].map(
      (name) => `LoadModule ${name}_module ${MODULES}/mod_${name}.so`,
    ),
    ...(asRoot ? ['User www-data', 'Group www-data'] : []),
    'StartServers 1',
    'MinSpareServers 1',
    'MaxSpareServers 2',
    `Mutex file:${dir}`,
    `DocumentRoot ${docs}`,
    'TypesConfig /etc/mime.types',
    'AddType text/html .shtml',
    'AddOutputFilter INCLUDES .shtml',
    'DirectoryIndex index.shtml index.html',
    `<Directory ${docs}>`,
    '  Options +Includes',
    '  Require all granted',
    '</Directory>',
    `OIDCProviderMetadataURL ${options.discoveryUrl}`,
    `OIDCClientID ${options.clientId}`,
    `OIDCClientSecret ${options.clientSecret}`,
    `OIDCRedirectURI ${redirectUri}`,
    `OIDCCryptoPassphrase ${randomBytes(24).toString('hex')}`,
    `OIDCScope "${options.scope ?? 'openid email profile'}"`,
    'OIDCPKCEMethod S256',
    'OIDCProviderTokenEndpointAuth client_secret_basic',
    // the module's session and state cookies as SameSite=Lax: they come back on the provider's top-level redirect
    'OIDCCookieSameSite On',
    'OIDCSessionType server-cache',
    'OIDCCacheType shm',
    ...(options.directives ?? []),
    '<Location /protected>',
    '  AuthType openid-connect',
    '  Require valid-user',
    '</Location>',
    '',
  ].join('\n');
  const configFile = join(dir, 'httpd.conf');
  writeFileSync(configFile, config);
  const errorLog = () => {
    try {
      return readFileSync(join(dir, 'error.log'), 'utf8');
    } catch {
      return '';
    }
  };
  // -DFOREGROUND keeps the parent attached, so stopping the child stops Apache and its workers. In a process group
  // of its own: Apache stops its workers by signalling its whole group, which would otherwise be the test runner's.
  const child: ChildProcess = spawn(APACHE, ['-f', configFile, '-DFOREGROUND'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  for (let i = 0; ; i++) {
    const up = await fetch(`${origin}/index.html`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (child.exitCode !== null || i > 100) {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`apache2 did not start: ${output}\n${errorLog()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    origin,
    protectedUrl: `${origin}/protected/`,
    redirectUri,
    loggedOutUrl: `${origin}/logged-out.html`,
    logoutUrl: (returnTo) => `${redirectUri}?logout=${encodeURIComponent(returnTo)}`,
    errorLog,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
