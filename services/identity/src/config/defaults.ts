import { join } from 'node:path';
import { REPO_ROOT } from './paths';
import type { Config } from './schema';

/** Development-only secret: loadConfig refuses it in production and warns loudly elsewhere. */
export const DEVELOPMENT_SECRET = 'development-secret-do-not-use-in-production-0123456789';

/**
 * The PostgreSQL pool of each process and its bounds (docs/operations.md, when a dependency fails). The statement
 * bound stays above the longest migration statement measured (8.8 s at 200,000 users): migrations use it too.
 */
export const DATABASE_DEFAULTS = { poolSize: 10, connectTimeoutMs: 5000, queryTimeoutMs: 10_000 } as const;

export function defaultConfig(): Config {
  return {
    env: 'development',
    port: 3000,
    host: '0.0.0.0',
    // Replaced at load: PUBLIC_URL, else (outside production) the address the service listens on.
    publicUrl: 'http://localhost:3000',
    basePath: '/api/auth',
    secret: DEVELOPMENT_SECRET,
    secretIsDevelopmentDefault: true,
    previousSecrets: [],
    trustedOrigins: [],
    trustProxy: false,
    database: { ...DATABASE_DEFAULTS },
    redisPrefix: 'identity:',
    mailFrom: 'Identity <no-reply@localhost>',
    logLevel: 'info',
    // docs/operations.md, Logs: successful lookups (get-session, introspection, probes) are not access-logged.
    logLookups: false,
    dataDir: join(REPO_ROOT, '.data'),
    consoleEnabled: false,
    consoleDir: join(REPO_ROOT, 'console', 'dist'),
    // docs/hosted-pages.md: off until the pages are built and turned on (HOSTED_PAGES_ENABLED).
    hostedPages: {
      enabled: false,
      path: '/auth',
      dir: join(REPO_ROOT, 'hosted', 'dist'),
      productName: 'Identity',
      colors: {},
      links: {},
      methods: { emailPassword: true, signUp: true, passkey: true },
      defaultLanguage: 'ENG',
    },
    shutdownDrainMs: 5000,
    // docs/operations.md, "Request deadline": an outage answer within Keycloak's 5 s acquire bound.
    requestTimeoutMs: 5000,
    clockSyncIntervalSec: 30,
    metricsEnabled: true,
    workerMetricsPort: 0,
    session: {
      expiresInSec: 7 * 24 * 3600,
      updateAgeSec: 24 * 3600,
      freshAgeSec: 900,
      absoluteLifetimeSec: 30 * 24 * 3600,
      notRememberedExpiresInSec: 24 * 3600,
      cookieCacheMaxAgeSec: 60,
      redisCacheTtlSec: 300,
      cookiePrefix: 'better-auth',
    },
    password: { minLength: 8, maxLength: 128 },
    argon2: { memoryKiB: 47104, timeCost: 1, parallelism: 1 },
    emailAndPassword: {
      enabled: true,
      disableSignUp: false,
      autoSignIn: true,
      requireEmailVerification: false,
      resetPasswordTokenExpiresInSec: 3600,
      revokeSessionsOnPasswordReset: false,
    },
    emailVerification: { sendOnSignUp: false, autoSignInAfterVerification: false, expiresInSec: 3600 },
    changeEmail: { enabled: true },
    deleteUser: { enabled: true, tokenExpiresInSec: 86400 },
    // docs/security.md, mail flooding: one inbox gets at most 5 mails of one kind an hour, whoever asks
    mail: {
      attempts: 5,
      backoffMs: 2000,
      concurrency: 5,
      outboxDir: join(REPO_ROOT, '.data', 'outbox'),
      maxPerAddressPerHour: 5,
    },
    // docs/decisions/0003-transactional-outbox.md: a crash between a commit and its hand-over delays a mail by the lease
    outbox: { pollMs: 2000, leaseMs: 30_000, retentionSec: 86_400 },
    // docs/audit.md: a year of audit trail, then events:prune drops it
    audit: { retentionDays: 365 },
    // docs/webhooks.md: Standard Webhooks' schedule (5 s … 10 h; about 27 hours in all), then given up
    webhook: {
      timeoutMs: 10_000,
      retryScheduleMs: [5_000, 300_000, 1_800_000, 7_200_000, 18_000_000, 36_000_000, 36_000_000],
      disableAfterFailingDays: 5,
      deliveryRetentionDays: 30,
      secretOverlapSec: 86_400,
      allowedTargets: [],
      concurrency: 10,
      endpointRefreshMs: 5_000,
    },
    // docs/oauth-clients.md: a day for the applications to take a rotated client secret; no API scopes of our own
    oauthClients: { secretGraceSec: 86_400, apiScopes: [] },
    advanced: { disableOriginCheck: false },
    rateLimit: {
      enabled: true,
      global: { windowSec: 60, max: 600 },
      // A per-account failure counter on top of the per-address limits (docs/security.md); the window ends it.
      accountFailures: { windowSec: 900, max: 10 },
      // Operators' rules by path (relative to the base path); each route declares its own default (its
      // `config.policy.rateLimit`, src/http/route-policy.ts), which a rule for its path replaces.
      rules: {},
    },
    social: {
      stateTtlSec: 600,
      requireLocalEmailVerifiedForLinking: true,
      allowDifferentEmails: false,
      refreshWithinMs: 5000,
      requestTimeoutSec: 10,
      idTokenMaxAgeSec: 600,
      discoveryRetrySec: 30,
      providers: {},
    },
    features: { organization: true, admin: true },
    // docs/two-factor.md: better-auth's two-factor defaults (5 tries per sign-in, 10 in a row lock for 15 min, 30 days)
    twoFactor: {
      issuer: 'Identity',
      pendingSignInTtlSec: 300,
      maxAttemptsPerSignIn: 5,
      lockoutFailures: 10,
      lockoutSec: 900,
      trustDeviceDays: 30,
      backupCodeCount: 10,
      requiredForAdmins: false,
    },
    // docs/two-factor.md "Passkeys": the relying party from PUBLIC_URL at load; better-auth's 5-minute challenge
    passkey: { userVerification: 'required', challengeTtlSec: 300 },
    // docs/passwordless.md: off until turned on; better-auth's 5-minute link
    magicLink: { enabled: false, ttlSec: 300, allowSignUp: false, sameBrowser: true },
    // docs/passwordless.md: off until turned on; better-auth's 5-minute code and three tries per code
    emailOtp: { enabled: false, ttlSec: 300, allowSignUp: false, maxAttempts: 3, changeEmail: false },
    // docs/oidc-provider.md: off until turned on; short access tokens, refresh tokens rotated at each use
    oidcProvider: {
      enabled: false,
      clients: [],
      accessTokenTtlSec: 900,
      idTokenTtlSec: 3600,
      authorizationCodeTtlSec: 60,
      refreshTokenTtlSec: 2_592_000,
      grantTtlSec: 31_536_000,
      interactionTtlSec: 3600,
    },
    // short-lived signed session tokens (better-auth's jwt plugin: EdDSA, 15 min).
    jwt: { alg: 'EdDSA', expiresInSec: 900, keyRefreshSec: 60, keyRotationSec: 0 },
    // Off until a provider is set. Which routes get it: those declaring `config.policy.botCheck` (better-auth's
    // captcha plugin endpoints and the reset alias), unless `endpoints` is set, which then replaces them.
    captcha: {
      minScore: 0.5,
      timeoutMs: 5000,
      failOpen: false,
    },
    organization: {
      allowUserToCreateOrganization: true,
      organizationLimit: 0,
      creatorRole: 'owner',
      membershipLimit: 100,
      memberListLimit: 100,
      invitationExpiresInSec: 172800,
      invitationLimit: 100,
      cancelPendingInvitationsOnReInvite: false,
      requireEmailVerificationOnInvitation: true,
      disableOrganizationDeletion: false,
      teams: {
        enabled: true,
        defaultTeam: true,
        maximumTeams: 0,
        maximumMembersPerTeam: 0,
        memberLimitOverrides: {},
        allowRemovingAllTeams: false,
      },
      roles: {},
    },
    apiKey: {
      header: 'x-api-key',
      sessionForApiKeys: true,
      keyLength: 64,
      startingCharacters: 6,
      rateLimit: { enabled: true, timeWindowMs: 60_000, max: 600 },
    },
    admin: {
      defaultRole: 'user',
      adminRoles: ['admin'],
      adminUserIds: [],
      impersonationSessionDurationSec: 3600,
      allowImpersonatingAdmins: false,
      reuseListTotals: true,
      defaultBanReason: 'No reason',
      roles: {},
    },
  };
}
