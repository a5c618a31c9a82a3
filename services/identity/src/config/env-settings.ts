/**
 * Every environment variable the service reads: its config path, parser and meaning.
 * The README's settings table mirrors this list (a test checks that it names each one).
 */
export type Parser =
  | 'int'
  | 'bool'
  | 'string'
  | 'url'
  | 'origin'
  | 'list'
  | 'csv'
  | 'ints'
  | 'trustProxy'
  | 'logLevel'
  | 'env'
  | 'path';

export interface EnvSetting {
  name: string;
  path: string;
  parse: Parser;
  doc: string;
}

const s = (name: string, path: string, parse: Parser, doc: string): EnvSetting => ({ name, path, parse, doc });

export const ENV_SETTINGS: EnvSetting[] = [
  s('NODE_ENV', 'env', 'env', 'production, development or test; production refuses the development secret'),
  s('PORT', 'port', 'int', 'HTTP port'),
  s('HOST', 'host', 'string', 'Listen address'),
  s(
    'PUBLIC_URL',
    'publicUrl',
    'origin',
    'Public origin; every link and redirect URI is built from it. Required in production; else the listen address',
  ),
  s('AUTH_BASE_PATH', 'basePath', 'path', 'Base path of the API'),
  s('AUTH_SECRET', 'secret', 'string', 'Signs cookies and tokens (at least 32 characters); required in production'),
  s(
    'AUTH_SECRET_PREVIOUS',
    'previousSecrets',
    'csv',
    'Comma-separated earlier secrets (each at least 32 characters): what they signed or sealed is still accepted; nothing new uses them',
  ),
  s(
    'TRUSTED_ORIGINS',
    'trustedOrigins',
    'list',
    'Comma-separated origins allowed for Origin and callbackURL checks (PUBLIC_URL is always trusted)',
  ),
  s(
    'TRUST_PROXY',
    'trustProxy',
    'trustProxy',
    'Comma-separated proxy addresses/CIDRs, or a hop count, whose X-Forwarded-For is honoured',
  ),
  s(
    'DATABASE_URL',
    'databaseUrl',
    'url',
    'PostgreSQL URL; required in production; unset elsewhere: an embedded PostgreSQL under DATA_DIR',
  ),
  s('DB_POOL_SIZE', 'database.poolSize', 'int', 'Size of the PostgreSQL connection pool of each process'),
  s(
    'DB_CONNECT_TIMEOUT_MS',
    'database.connectTimeoutMs',
    'int',
    'Longest wait for a PostgreSQL connection (a free one of the pool, or a new one); past it the request answers 503',
  ),
  s(
    'DB_QUERY_TIMEOUT_MS',
    'database.queryTimeoutMs',
    'int',
    'PostgreSQL cancels a statement running longer (statement_timeout); a connection whose server does not answer at all is closed within 1 s after; the request answers 503',
  ),
  s(
    'REDIS_URL',
    'redisUrl',
    'url',
    'Redis URL; unset: in-process cache, state and rate-limit stores (one instance only)',
  ),
  s('REDIS_PREFIX', 'redisPrefix', 'string', 'Prefix of every Redis key'),
  s('SMTP_URL', 'smtpUrl', 'url', 'SMTP server for mail; unset: mail goes to a dev outbox'),
  s('MAIL_FROM', 'mailFrom', 'string', 'From address of mail'),
  s('LOG_LEVEL', 'logLevel', 'logLevel', 'fatal, error, warn, info, debug, trace or silent'),
  s(
    'DATA_DIR',
    'dataDir',
    'string',
    'Directory of the embedded PostgreSQL data and the dev outbox; default .data in the repository',
  ),
  s(
    'SERVICE_API_KEY',
    'serviceApiKey',
    'string',
    'Static service credential for server-only routes (x-api-key header); at least 32 characters',
  ),
  s('CONSOLE_ENABLED', 'consoleEnabled', 'bool', 'Serve the admin console bundle at /console'),
  s(
    'CONSOLE_DIR',
    'consoleDir',
    'string',
    'Directory of the built console (index.html, assets/) served at /console; default console/dist in the repository',
  ),
  s('HOSTED_PAGES_ENABLED', 'hostedPages.enabled', 'bool', 'Serve the hosted sign-in pages under HOSTED_PAGES_PATH'),
  s('HOSTED_PAGES_PATH', 'hostedPages.path', 'path', 'Path the hosted sign-in pages are served under'),
  s(
    'HOSTED_PAGES_DIR',
    'hostedPages.dir',
    'string',
    'Directory of the built hosted pages (index.html, assets/); default hosted/dist in the repository',
  ),
  s('HOSTED_PAGES_PRODUCT_NAME', 'hostedPages.productName', 'string', 'Product name the hosted pages show'),
  s('HOSTED_PAGES_LOGO_URL', 'hostedPages.logoUrl', 'string', 'Logo of the hosted pages (https URL or a path)'),
  s('HOSTED_PAGES_ACCENT_COLOR', 'hostedPages.colors.accent', 'string', 'Accent colour of the hosted pages (#rrggbb)'),
  s('HOSTED_PAGES_SUPPORT_URL', 'hostedPages.links.support', 'string', 'Help link in the hosted pages'),
  s(
    'HOSTED_PAGES_HOME_URL',
    'hostedPages.links.home',
    'string',
    "The product's home: the hosted pages' way back to it",
  ),
  s('HOSTED_PAGES_TERMS_URL', 'hostedPages.links.terms', 'string', 'Terms link in the hosted pages'),
  s('HOSTED_PAGES_PRIVACY_URL', 'hostedPages.links.privacy', 'string', 'Privacy link in the hosted pages'),
  s(
    'HOSTED_PAGES_DEFAULT_LANGUAGE',
    'hostedPages.defaultLanguage',
    'string',
    'Language of the hosted pages when nothing else chooses one: RUS, UKR, ENG, SPA, GERMAN, POL, FRA or TURKEY',
  ),
  s(
    'CONFIG_FILE',
    '',
    'string',
    'Optional YAML or JSON file with structured settings (same keys as the config object)',
  ),
  s('SESSION_EXPIRES_IN_SEC', 'session.expiresInSec', 'int', 'Session lifetime, extended on use (sliding)'),
  s('SESSION_UPDATE_AGE_SEC', 'session.updateAgeSec', 'int', 'Renew a session when its last update is older than this'),
  s(
    'SESSION_FRESH_AGE_SEC',
    'session.freshAgeSec',
    'int',
    'A session younger than this counts as fresh for sensitive actions',
  ),
  s('SESSION_ABSOLUTE_LIFETIME_SEC', 'session.absoluteLifetimeSec', 'int', 'Hard cap on a session from its creation'),
  s(
    'SESSION_NOT_REMEMBERED_EXPIRES_IN_SEC',
    'session.notRememberedExpiresInSec',
    'int',
    'Server-side lifetime of a rememberMe=false session',
  ),
  s(
    'SESSION_COOKIE_CACHE_MAX_AGE_SEC',
    'session.cookieCacheMaxAgeSec',
    'int',
    'Max age of the signed session-cache cookie; 0 disables it',
  ),
  s('SESSION_REDIS_CACHE_TTL_SEC', 'session.redisCacheTtlSec', 'int', 'TTL of the Redis session cache; 0 disables it'),
  s('COOKIE_PREFIX', 'session.cookiePrefix', 'string', 'Cookie name prefix (better-auth for client compatibility)'),
  s('PASSWORD_MIN_LENGTH', 'password.minLength', 'int', 'Minimum password length'),
  s('PASSWORD_MAX_LENGTH', 'password.maxLength', 'int', 'Maximum password length (checked before hashing)'),
  s('ARGON2_MEMORY_KIB', 'argon2.memoryKiB', 'int', 'argon2id memory cost'),
  s('ARGON2_TIME_COST', 'argon2.timeCost', 'int', 'argon2id iterations'),
  s('ARGON2_PARALLELISM', 'argon2.parallelism', 'int', 'argon2id lanes'),
  s('EMAIL_PASSWORD_ENABLED', 'emailAndPassword.enabled', 'bool', 'Email and password sign-up and sign-in'),
  s('SIGN_UP_DISABLED', 'emailAndPassword.disableSignUp', 'bool', 'Refuse new sign-ups by email'),
  s(
    'REQUIRE_EMAIL_VERIFICATION',
    'emailAndPassword.requireEmailVerification',
    'bool',
    'Refuse sign-in until the email is verified (a new verification mail is sent)',
  ),
  s('RESET_PASSWORD_TOKEN_TTL_SEC', 'emailAndPassword.resetPasswordTokenExpiresInSec', 'int', 'Reset link lifetime'),
  s(
    'REVOKE_SESSIONS_ON_PASSWORD_RESET',
    'emailAndPassword.revokeSessionsOnPasswordReset',
    'bool',
    'A password reset signs the user out everywhere',
  ),
  s('SEND_VERIFICATION_ON_SIGN_UP', 'emailVerification.sendOnSignUp', 'bool', 'Send a verification mail at sign-up'),
  s(
    'AUTO_SIGN_IN_AFTER_VERIFICATION',
    'emailVerification.autoSignInAfterVerification',
    'bool',
    'Clicking the verification link signs the user in',
  ),
  s('VERIFICATION_TOKEN_TTL_SEC', 'emailVerification.expiresInSec', 'int', 'Verification link lifetime'),
  s('CHANGE_EMAIL_ENABLED', 'changeEmail.enabled', 'bool', 'Users may change their email'),
  s('DELETE_USER_ENABLED', 'deleteUser.enabled', 'bool', 'Users may delete their account'),
  s('DELETE_USER_TOKEN_TTL_SEC', 'deleteUser.tokenExpiresInSec', 'int', 'Deletion confirmation link lifetime'),
  s('MAIL_ATTEMPTS', 'mail.attempts', 'int', 'Send attempts per mail (first included)'),
  s('MAIL_BACKOFF_MS', 'mail.backoffMs', 'int', 'Delay before the first retry; doubles each attempt'),
  s('MAIL_CONCURRENCY', 'mail.concurrency', 'int', 'Mails a worker sends at once'),
  s('MAIL_OUTBOX_DIR', 'mail.outboxDir', 'string', 'Dev outbox: .eml files written when SMTP_URL is unset'),
  s(
    'MAIL_MAX_PER_ADDRESS_PER_HOUR',
    'mail.maxPerAddressPerHour',
    'int',
    'Mails of one kind (reset, verification, …) sent to one address per hour, whoever asks; 0 = no cap',
  ),
  s('OUTBOX_POLL_MS', 'outbox.pollMs', 'int', 'How often each API instance looks for outbox rows to relay or check'),
  s(
    'OUTBOX_LEASE_MS',
    'outbox.leaseMs',
    'int',
    'How long an outbox row written or claimed by one API instance is left to it before another takes it over',
  ),
  s(
    'OUTBOX_RETENTION_SEC',
    'outbox.retentionSec',
    'int',
    'Done outbox rows are deleted this long after; rows no queue confirmed within it are given up',
  ),
  s(
    'AUDIT_RETENTION_DAYS',
    'audit.retentionDays',
    'int',
    'Audit events older than this many days are dropped by the events:prune command (the Helm CronJob runs it daily)',
  ),
  s('WEBHOOK_TIMEOUT_MS', 'webhook.timeoutMs', 'int', 'One webhook delivery attempt gives up after this'),
  s(
    'WEBHOOK_RETRY_SCHEDULE_MS',
    'webhook.retryScheduleMs',
    'ints',
    'Comma-separated waits before each retry of a failed webhook delivery (its length is the number of retries)',
  ),
  s(
    'WEBHOOK_DISABLE_AFTER_FAILING_DAYS',
    'webhook.disableAfterFailingDays',
    'int',
    'A webhook endpoint whose deliveries failed this many days without a success is disabled',
  ),
  s(
    'WEBHOOK_DELIVERY_RETENTION_DAYS',
    'webhook.deliveryRetentionDays',
    'int',
    'Webhook delivery log rows older than this many days are deleted',
  ),
  s(
    'WEBHOOK_SECRET_OVERLAP_SEC',
    'webhook.secretOverlapSec',
    'int',
    'After rotate-webhook-secret, deliveries are also signed with the previous secret this long',
  ),
  s(
    'WEBHOOK_ALLOWED_TARGETS',
    'webhook.allowedTargets',
    'csv',
    'Comma-separated hosts and CIDRs webhook URLs may reach in production although not public (loopback, private)',
  ),
  s('WEBHOOK_CONCURRENCY', 'webhook.concurrency', 'int', 'Webhook deliveries one worker (or the API) makes at once'),
  s(
    'WEBHOOK_ENDPOINT_REFRESH_MS',
    'webhook.endpointRefreshMs',
    'int',
    'Each API instance reloads the enabled webhook endpoints this often (its own changes at once)',
  ),
  s(
    'ORIGIN_CHECK_DISABLED',
    'advanced.disableOriginCheck',
    'bool',
    'Skip the Origin check on cookie-carrying POSTs (never in production)',
  ),
  s('RATE_LIMIT_ENABLED', 'rateLimit.enabled', 'bool', 'Rate limits (global, and stricter on sign-in and sign-up)'),
  s('METRICS_ENABLED', 'metricsEnabled', 'bool', 'Serve GET /metrics (Prometheus) at the root of the port'),
  s(
    'WORKER_METRICS_PORT',
    'workerMetricsPort',
    'int',
    'The worker serves GET /metrics (its webhook deliveries) on this port; 0: it serves none',
  ),
  s(
    'REQUEST_TIMEOUT_MS',
    'requestTimeoutMs',
    'int',
    'Every request is answered within this: its waits for PostgreSQL (a connection, each answer) end by then, and past it the answer is 503 SERVICE_UNAVAILABLE; routes that document a longer deadline keep theirs',
  ),
  s('SHUTDOWN_DRAIN_MS', 'shutdownDrainMs', 'int', 'On SIGTERM, serve with readiness 503 this long before closing'),
  s(
    'CLOCK_SYNC_INTERVAL_SEC',
    'clockSyncIntervalSec',
    'int',
    "How often each instance reads the database's clock, which every expiry follows",
  ),
  s('JWT_ALG', 'jwt.alg', 'string', 'Signing algorithm of GET /token JWTs: EdDSA (Ed25519), ES256 or RS256'),
  s('JWT_EXPIRES_IN_SEC', 'jwt.expiresInSec', 'int', 'Lifetime of a GET /token JWT (never past the session expiry)'),
  s('JWT_AUDIENCE', 'jwt.audience', 'string', 'aud claim of issued JWTs (default PUBLIC_URL)'),
  s('JWT_KEY_REFRESH_SEC', 'jwt.keyRefreshSec', 'int', 'How often each instance reloads the signing keys'),
  s('JWT_KEY_ROTATION_SEC', 'jwt.keyRotationSec', 'int', 'Rotate the signing key when older than this; 0 = manual'),
  s('CAPTCHA_PROVIDER', 'captcha.provider', 'string', 'Bot check: cloudflare-turnstile, google-recaptcha or hcaptcha'),
  s('CAPTCHA_SECRET_KEY', 'captcha.secretKey', 'string', "The bot-check provider's secret key"),
  s('CAPTCHA_SITE_KEY', 'captcha.siteKey', 'string', 'The site key (sent to hCaptcha as sitekey)'),
  s('CAPTCHA_SITE_VERIFY_URL', 'captcha.siteVerifyUrl', 'url', "The provider's verify URL (default: its real one)"),
  s(
    'CAPTCHA_SCRIPT_URL',
    'captcha.scriptUrl',
    'url',
    "The widget script the hosted pages load (default: the provider's own; its origin joins their CSP)",
  ),
  s('CAPTCHA_TIMEOUT_MS', 'captcha.timeoutMs', 'int', 'Timeout of the verify call'),
  s('CAPTCHA_FAIL_OPEN', 'captcha.failOpen', 'bool', 'Let requests through when the provider cannot answer'),
  s('FEATURE_ORGANIZATION', 'features.organization', 'bool', 'Organization feature'),
  s('FEATURE_ADMIN', 'features.admin', 'bool', 'Admin feature'),
  s('ORGANIZATION_MEMBERSHIP_LIMIT', 'organization.membershipLimit', 'int', 'Members per organization'),
  s('INVITATION_TTL_SEC', 'organization.invitationExpiresInSec', 'int', 'Invitation lifetime'),
  s('INVITATION_LINK_BASE', 'organization.invitationLinkBase', 'url', 'Accept page of the product frontend'),
  s('TWO_FACTOR_ISSUER', 'twoFactor.issuer', 'string', 'Issuer name authenticator apps show next to the account'),
  s(
    'TWO_FACTOR_PENDING_TTL_SEC',
    'twoFactor.pendingSignInTtlSec',
    'int',
    'A sign-in waiting for its second factor expires after this',
  ),
  s(
    'TWO_FACTOR_MAX_ATTEMPTS',
    'twoFactor.maxAttemptsPerSignIn',
    'int',
    'Wrong codes one pending sign-in may try before it is given up',
  ),
  s(
    'TWO_FACTOR_LOCKOUT_FAILURES',
    'twoFactor.lockoutFailures',
    'int',
    'Wrong second-factor codes in a row that lock the account; 0 = no lockout',
  ),
  s('TWO_FACTOR_LOCKOUT_SEC', 'twoFactor.lockoutSec', 'int', 'How long a second-factor lockout lasts'),
  s(
    'TWO_FACTOR_TRUST_DEVICE_DAYS',
    'twoFactor.trustDeviceDays',
    'int',
    'A trusted device skips the second factor this many days, renewed at each sign-in; 0 = off',
  ),
  s('TWO_FACTOR_BACKUP_CODES', 'twoFactor.backupCodeCount', 'int', 'Backup codes in a set'),
  s(
    'TWO_FACTOR_REQUIRED_FOR_ADMINS',
    'twoFactor.requiredForAdmins',
    'bool',
    'Users whose role grants admin permissions must have a second factor to use them',
  ),
  s('TWO_FACTOR_ACCOUNT_URL', 'twoFactor.accountUrl', 'url', 'Product page the second-factor notices link to'),
  s(
    'PASSKEY_RP_ID',
    'passkey.rpId',
    'string',
    "Passkeys' relying party id: PUBLIC_URL's host name or a parent domain of the pages that use them",
  ),
  s('PASSKEY_RP_NAME', 'passkey.rpName', 'string', 'The name authenticators show for the passkeys made here'),
  s(
    'PASSKEY_ORIGINS',
    'passkey.origins',
    'list',
    'Comma-separated origins of the pages that may register and use passkeys (default: PUBLIC_URL and TRUSTED_ORIGINS on the relying party id)',
  ),
  s(
    'PASSKEY_USER_VERIFICATION',
    'passkey.userVerification',
    'string',
    'required (the authenticator verifies the user at every use) or preferred',
  ),
  s(
    'PASSKEY_CHALLENGE_TTL_SEC',
    'passkey.challengeTtlSec',
    'int',
    'A passkey registration or sign-in must finish within this',
  ),
  s('ADMIN_USER_IDS', 'admin.adminUserIds', 'csv', 'User ids that pass every admin check'),
  s('IMPERSONATION_TTL_SEC', 'admin.impersonationSessionDurationSec', 'int', 'Impersonation session lifetime'),
  s(
    'ADMIN_LIST_TOTAL_REUSE',
    'admin.reuseListTotals',
    'bool',
    "list-users reuses a search's exact total while no user changed",
  ),
  s('API_KEY_HEADER', 'apiKey.header', 'string', 'Request header that carries an API key (lowercase)'),
  s(
    'API_KEY_SESSIONS',
    'apiKey.sessionForApiKeys',
    'bool',
    'A valid API key in the header signs a request in as its owner (except the routes listed in docs/api-keys.md)',
  ),
  s(
    'SOCIAL_ID_TOKEN_MAX_AGE_SEC',
    'social.idTokenMaxAgeSec',
    'int',
    'Id-token sign-in and link-social refuse an id token issued longer ago than this',
  ),
  s(
    'SOCIAL_DISCOVERY_RETRY_SEC',
    'social.discoveryRetrySec',
    'int',
    "After a provider's discovery fails, its routes answer at once until this long has passed",
  ),
];
