import type { Config } from './schema';

/** Development-only secret: loadConfig refuses it in production and warns loudly elsewhere. */
export const DEVELOPMENT_SECRET = 'development-secret-do-not-use-in-production-0123456789';

export function defaultConfig(): Config {
  return {
    env: 'development',
    port: 3000,
    host: '0.0.0.0',
    publicUrl: 'http://localhost:3000',
    basePath: '/api/auth',
    secret: DEVELOPMENT_SECRET,
    secretIsDevelopmentDefault: true,
    trustedOrigins: [],
    trustProxy: false,
    redisPrefix: 'identity:',
    mailFrom: 'Identity <no-reply@localhost>',
    logLevel: 'info',
    dataDir: '.data',
    consoleEnabled: false,
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
    mail: { attempts: 5, backoffMs: 2000, concurrency: 5, outboxDir: '.data/outbox' },
    advanced: { disableOriginCheck: false },
    rateLimit: {
      enabled: true,
      global: { windowSec: 60, max: 600 },
      rules: {
        '/sign-in/email': { windowSec: 60, max: 10 },
        '/sign-up/email': { windowSec: 60, max: 5 },
        // password and email routes: each request may send a mail or try a token (SECURITY.md rate limits)
        '/request-password-reset': { windowSec: 60, max: 5 },
        '/forget-password': { windowSec: 60, max: 5 },
        '/reset-password': { windowSec: 60, max: 10 },
        '/send-verification-email': { windowSec: 60, max: 5 },
        '/change-email': { windowSec: 60, max: 5 },
        '/change-password': { windowSec: 60, max: 10 },
        '/delete-user': { windowSec: 60, max: 5 },
      },
    },
    features: { organization: true, admin: true },
  };
}
