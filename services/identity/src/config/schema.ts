/**
 * The configuration schema: the single source of the Config type and of its validation.
 * Units live in the names (`…Sec`, `…Ms`); docs/configuration.md documents every field.
 */
import { type Static, Type } from 'typebox';
import { strict } from '../shared/schemas';

const Int = (minimum: number, description: string) => Type.Integer({ minimum, description });
const Rule = Type.Object({ windowSec: Int(1, 'window length'), max: Int(1, 'requests per window') }, strict);
const Url = (description: string) => Type.Optional(Type.String({ minLength: 1, description }));

/** One social provider: a named one (spec §1) or any other id as a generic OIDC / OAuth 2 provider. */
const SocialProvider = Type.Object(
  {
    clientId: Type.String({ minLength: 1 }),
    /** Prefer the environment: SOCIAL_<ID>_CLIENT_SECRET. */
    clientSecret: Type.Optional(Type.String({ minLength: 1 })),
    /** Required for ids that are not named providers: oidc (discovery) or oauth2 (explicit endpoints). */
    type: Type.Optional(Type.Union([Type.Literal('oidc'), Type.Literal('oauth2')])),
    discoveryUrl: Url('OIDC: the issuer or its /.well-known/openid-configuration URL'),
    issuer: Url('id-token issuer (overrides the named provider)'),
    authorizationEndpoint: Url('authorization endpoint (overrides the named provider)'),
    tokenEndpoint: Url('token endpoint (overrides the named provider)'),
    userInfoEndpoint: Url('user-info endpoint (overrides the named provider)'),
    jwksUri: Url('JWKS of the id-token keys (overrides the named provider)'),
    /** Microsoft: the Entra tenant (common, organizations, consumers or a tenant id). */
    tenantId: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9.-]+$' })),
    scopes: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { description: 'added to the defaults' })),
    disableDefaultScope: Type.Optional(Type.Boolean()),
    /** Id tokens minted for these client ids (a mobile app's) are accepted too. */
    audiences: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
    trustedForLinking: Type.Optional(
      Type.Boolean({ description: 'link even when the provider does not say the email is verified' }),
    ),
    disableSignUp: Type.Optional(Type.Boolean({ description: 'only existing users may sign in with it' })),
    disableImplicitSignUp: Type.Optional(
      Type.Boolean({ description: 'register a new user only when sign-in/social asked for it (requestSignUp)' }),
    ),
    disableLinking: Type.Optional(Type.Boolean({ description: 'never link it to an existing user' })),
    disableIdTokenSignIn: Type.Optional(Type.Boolean()),
    twoFactor: Type.Optional(
      Type.Boolean({ description: 'users with a second factor are asked for it after this provider (default true)' }),
    ),
    prompt: Type.Optional(Type.String({ maxLength: 64 })),
    /** The name on its button in the hosted pages (default: the provider's own name, or the id). */
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 40 })),
  },
  strict,
);

/**
 * A static client of the OpenID provider (docs/oidc-provider.md): the OAuth 2.0 dynamic client registration names
 * (RFC 7591), plus `first_party`. From `oidcProvider.clients` or the OIDC_CLIENTS_FILE.
 */
export const OidcClientSchema = Type.Object(
  {
    client_id: Type.String({ minLength: 1, maxLength: 200, pattern: '^[\\x21-\\x7e]+$' }),
    /** Confidential clients only (at least 32 characters); a public client (`none`) has none. */
    client_secret: Type.Optional(Type.String({ minLength: 32, maxLength: 500 })),
    client_name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    logo_uri: Type.Optional(Type.String({ minLength: 1, maxLength: 2000 })),
    redirect_uris: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }))),
    post_logout_redirect_uris: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 2000 }))),
    grant_types: Type.Array(
      Type.Union([
        Type.Literal('authorization_code'),
        Type.Literal('refresh_token'),
        Type.Literal('client_credentials'),
      ]),
      { minItems: 1 },
    ),
    /** The scopes the client may ask for, space-separated (openid, email, profile, offline_access, or its own). */
    scope: Type.Optional(
      Type.String({ pattern: '^[\\x21\\x23-\\x5b\\x5d-\\x7e]+( [\\x21\\x23-\\x5b\\x5d-\\x7e]+)*$' }),
    ),
    token_endpoint_auth_method: Type.Optional(
      Type.Union([Type.Literal('client_secret_basic'), Type.Literal('client_secret_post'), Type.Literal('none')]),
    ),
    /** The service's own product: no consent is asked of its users. */
    first_party: Type.Optional(Type.Boolean()),
  },
  strict,
);

export const ConfigSchema = Type.Object(
  {
    env: Type.Union([Type.Literal('production'), Type.Literal('development'), Type.Literal('test')]),
    port: Type.Integer({ minimum: 0, maximum: 65535 }),
    host: Type.String({ minLength: 1 }),
    publicUrl: Type.String({ minLength: 1, description: 'public origin; links and redirect URIs come from it' }),
    basePath: Type.String({ pattern: '^/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$' }),
    secret: Type.String({ minLength: 32 }),
    /** Secrets still accepted but no longer used to sign or seal (AUTH_SECRET_PREVIOUS; rotation, docs/security.md). */
    previousSecrets: Type.Array(Type.String({ minLength: 32 })),
    secretIsDevelopmentDefault: Type.Boolean(),
    trustedOrigins: Type.Array(Type.String()),
    trustProxy: Type.Union([Type.Literal(false), Type.Integer({ minimum: 1 }), Type.Array(Type.String())]),
    databaseUrl: Type.Optional(Type.String()),
    /** The PostgreSQL pool and its bounds: a stopped, hung or saturated database answers 503, never a hang. */
    database: Type.Object(
      {
        poolSize: Int(1, 'connections per process'),
        connectTimeoutMs: Int(100, 'wait for a pool connection, opening one included'),
        queryTimeoutMs: Int(
          100,
          'PostgreSQL cancels a longer statement; the client closes a connection with no answer within 1 s after',
        ),
      },
      strict,
    ),
    redisUrl: Type.Optional(Type.String()),
    redisPrefix: Type.String(),
    smtpUrl: Type.Optional(Type.String()),
    mailFrom: Type.String({ minLength: 3 }),
    logLevel: Type.Union([
      Type.Literal('fatal'),
      Type.Literal('error'),
      Type.Literal('warn'),
      Type.Literal('info'),
      Type.Literal('debug'),
      Type.Literal('trace'),
      Type.Literal('silent'),
    ]),
    logLookups: Type.Boolean({
      description: 'a request line at info for every successful get-session, introspection and probe too',
    }),
    dataDir: Type.String({ minLength: 1 }),
    serviceApiKey: Type.Optional(Type.String({ minLength: 32 })),
    consoleEnabled: Type.Boolean(),
    consoleDir: Type.String({
      minLength: 1,
      description: 'the built console (index.html and assets/), served at /console',
    }),
    /** The hosted sign-in pages (docs/hosted-pages.md): where they are served and how they look. */
    hostedPages: Type.Object(
      {
        enabled: Type.Boolean({ description: 'serve the built pages under `path`' }),
        path: Type.String({ pattern: '^/[A-Za-z0-9/_-]*[A-Za-z0-9_-]$', description: 'where the pages are served' }),
        dir: Type.String({ minLength: 1, description: 'the built pages (index.html and assets/)' }),
        productName: Type.String({ minLength: 1, maxLength: 80 }),
        logoUrl: Type.Optional(Type.String({ minLength: 1, description: 'an https (or same-origin path) image' })),
        colors: Type.Object(
          {
            accent: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'buttons and links' })),
            accentText: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', description: 'text on the accent' })),
          },
          strict,
        ),
        links: Type.Object(
          {
            support: Type.Optional(Type.String({ minLength: 1 })),
            terms: Type.Optional(Type.String({ minLength: 1 })),
            privacy: Type.Optional(Type.String({ minLength: 1 })),
            /** The product's home page: where the pages send a person who has no callback to go back to. */
            home: Type.Optional(Type.String({ minLength: 1 })),
          },
          strict,
        ),
        methods: Type.Object(
          {
            emailPassword: Type.Boolean({ description: 'the email and password form (when the service allows it)' }),
            signUp: Type.Boolean({ description: 'the sign-up page (when the service allows sign-up)' }),
            passkey: Type.Boolean({
              description:
                "passkeys on the sign-in and security pages (when the relying party accepts the pages' origin)",
            }),
            /** Unset: every configured provider, in configuration order. */
            social: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
          },
          strict,
        ),
        /** spec §1 language names; the pages' language when neither the user, `?lang=` nor the browser names one. */
        defaultLanguage: Type.Union([
          Type.Literal('RUS'),
          Type.Literal('UKR'),
          Type.Literal('ENG'),
          Type.Literal('SPA'),
          Type.Literal('GERMAN'),
          Type.Literal('POL'),
          Type.Literal('FRA'),
          Type.Literal('TURKEY'),
        ]),
      },
      strict,
    ),
    metricsEnabled: Type.Boolean({ description: 'GET /metrics (Prometheus text) and the per-request latency hook' }),
    workerMetricsPort: Type.Integer({
      minimum: 0,
      maximum: 65535,
      description: 'the worker serves GET /metrics on this port (webhook deliveries); 0 = not at all',
    }),
    shutdownDrainMs: Int(0, 'on SIGTERM, serve this long with readiness 503 before closing'),
    requestTimeoutMs: Int(500, 'a request is answered by then (503 past it), database waits included'),
    clockSyncIntervalSec: Int(1, "how often each instance reads the database's clock (expiries follow it)"),
    session: Type.Object(
      {
        expiresInSec: Int(60, 'sliding session lifetime'),
        updateAgeSec: Int(0, 'renew when last update is older'),
        freshAgeSec: Int(0, 'fresh window for sensitive actions'),
        absoluteLifetimeSec: Int(60, 'hard cap from creation'),
        notRememberedExpiresInSec: Int(60, 'lifetime of rememberMe=false sessions'),
        cookieCacheMaxAgeSec: Int(0, 'session-cache cookie max age (spec §9: 60)'),
        redisCacheTtlSec: Int(0, 'Redis session cache TTL'),
        cookiePrefix: Type.String({ pattern: '^[A-Za-z0-9_-]+$' }),
      },
      strict,
    ),
    password: Type.Object({ minLength: Int(1, 'minimum length'), maxLength: Int(1, 'maximum length') }, strict),
    argon2: Type.Object(
      { memoryKiB: Int(19456, 'OWASP floor'), timeCost: Int(1, 'iterations'), parallelism: Int(1, 'lanes') },
      strict,
    ),
    emailAndPassword: Type.Object(
      {
        enabled: Type.Boolean(),
        disableSignUp: Type.Boolean(),
        autoSignIn: Type.Boolean(),
        /** Sign-in refuses an unverified email (EMAIL_NOT_VERIFIED) and sends a new verification mail. */
        requireEmailVerification: Type.Boolean(),
        resetPasswordTokenExpiresInSec: Int(60, 'reset token lifetime (spec §9: 3600)'),
        revokeSessionsOnPasswordReset: Type.Boolean(),
      },
      strict,
    ),
    emailVerification: Type.Object(
      {
        sendOnSignUp: Type.Boolean(),
        autoSignInAfterVerification: Type.Boolean(),
        expiresInSec: Int(60, 'verification token lifetime (spec §9: 3600)'),
      },
      strict,
    ),
    changeEmail: Type.Object({ enabled: Type.Boolean() }, strict),
    deleteUser: Type.Object(
      { enabled: Type.Boolean(), tokenExpiresInSec: Int(60, 'deletion token lifetime (spec §9: 86400)') },
      strict,
    ),
    mail: Type.Object(
      {
        attempts: Int(1, 'send attempts per mail, first included'),
        backoffMs: Int(0, 'first retry delay, doubled each attempt'),
        concurrency: Int(1, 'mails sent at once per worker'),
        outboxDir: Type.String({ minLength: 1, description: 'dev outbox (.eml files) when SMTP_URL is unset' }),
        maxPerAddressPerHour: Int(0, 'mails of one kind to one address per hour, whoever asks; 0 = no cap'),
      },
      strict,
    ),
    outbox: Type.Object(
      {
        pollMs: Int(50, 'how often each API instance looks for outbox rows to relay or check'),
        leaseMs: Int(1000, 'how long a row written or claimed by one instance is left to it before another takes over'),
        retentionSec: Int(60, 'done rows are deleted this long after; rows not done this long after writing expire'),
      },
      strict,
    ),
    audit: Type.Object(
      { retentionDays: Int(1, 'audit events older than this are dropped by events:prune (docs/operations.md)') },
      strict,
    ),
    webhook: Type.Object(
      {
        timeoutMs: Int(100, 'one delivery attempt gives up after this (connect, send and answer)'),
        retryScheduleMs: Type.Array(Int(0, 'wait before this retry'), {
          maxItems: 30,
          description: 'the waits before each retry after the first attempt; its length is the number of retries',
        }),
        disableAfterFailingDays: Int(
          1,
          'an endpoint whose deliveries failed this many days without a success is disabled',
        ),
        deliveryRetentionDays: Int(1, 'delivery log rows older than this are deleted by the expiry sweep'),
        secretOverlapSec: Int(0, 'after a rotation, deliveries are signed with the previous secret too this long'),
        allowedTargets: Type.Array(Type.String({ minLength: 1 }), {
          description: 'hosts and CIDRs a webhook URL may reach in production although they are not public',
        }),
        concurrency: Int(1, 'deliveries one worker (or the API without Redis) makes at once'),
        endpointRefreshMs: Int(100, 'each instance reloads the enabled endpoints this often'),
      },
      strict,
    ),
    /** The registered OAuth clients (docs/oauth-clients.md). */
    oauthClients: Type.Object(
      {
        secretGraceSec: Int(0, 'after a rotation, the previous client secret is still accepted this long'),
        apiScopes: Type.Array(Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]{1,128}$' }), {
          description: "scopes of the service's APIs clients may be allowed, beside the OpenID ones",
        }),
      },
      strict,
    ),
    advanced: Type.Object({ disableOriginCheck: Type.Boolean() }, strict),
    rateLimit: Type.Object(
      {
        enabled: Type.Boolean(),
        global: Rule,
        /** By path relative to the base path: replaces the rule that route declares, or gives one to a route without. */
        rules: Type.Record(Type.String({ pattern: '^/' }), Rule),
        accountFailures: Type.Object(
          { windowSec: Int(1, 'window length'), max: Int(0, 'failed sign-ins per account and window; 0 = off') },
          strict,
        ),
      },
      strict,
    ),
    social: Type.Object(
      {
        stateTtlSec: Int(60, 'OAuth state lifetime (spec §9: 600)'),
        /** Account linking: never link a provider login to an account whose own email is unverified. */
        requireLocalEmailVerifiedForLinking: Type.Boolean(),
        /** link-social may link a provider account whose email differs from the user's. */
        allowDifferentEmails: Type.Boolean(),
        /** get-access-token refreshes a token expiring within this (spec §9: 5000). */
        refreshWithinMs: Int(0, 'refresh margin'),
        /** Outgoing calls to providers give up after this. */
        requestTimeoutSec: Int(1, 'provider call timeout'),
        /** Id-token sign-in and link-social refuse an id token issued (iat) longer ago than this. */
        idTokenMaxAgeSec: Int(1, 'maximum age of an id token for sign-in, from its iat'),
        /** After a provider's discovery fails, its routes answer at once until this long has passed. */
        discoveryRetrySec: Int(0, 'wait before discovering a failed provider again'),
        providers: Type.Record(Type.String({ pattern: '^[a-z0-9][a-z0-9_-]{0,63}$' }), SocialProvider),
      },
      strict,
    ),
    features: Type.Object({ organization: Type.Boolean(), admin: Type.Boolean() }, strict),
    /** A second factor, TOTP and backup codes (docs/two-factor.md). */
    twoFactor: Type.Object(
      {
        issuer: Type.String({ minLength: 1, maxLength: 64, description: 'the issuer authenticator apps show' }),
        pendingSignInTtlSec: Int(30, 'a sign-in waiting for its second factor expires after this'),
        maxAttemptsPerSignIn: Int(1, 'wrong codes one pending sign-in may try before it is given up'),
        lockoutFailures: Int(0, 'wrong codes in a row that lock the account; 0 = no lockout'),
        lockoutSec: Int(1, 'how long the lockout lasts'),
        trustDeviceDays: Int(0, 'a trusted device skips the second factor this long, renewed at each sign-in; 0 = off'),
        backupCodeCount: Int(1, 'backup codes in a set'),
        /** The admin policy: admin permissions are refused (TWO_FACTOR_REQUIRED) to a user without a second factor. */
        requiredForAdmins: Type.Boolean(),
        /** The product page the notices link to (enrolment, removal, new backup codes); unset = PUBLIC_URL. */
        accountUrl: Type.Optional(Type.String({ minLength: 1 })),
      },
      strict,
    ),
    /**
     * Passkeys (docs/two-factor.md "Passkeys"): the WebAuthn relying party. Unset id, name and origins are derived
     * at load (config/passkey.ts): PUBLIC_URL's host name, the hosted pages' product name, and those of PUBLIC_URL
     * and TRUSTED_ORIGINS that can use that id.
     */
    passkey: Type.Object(
      {
        rpId: Type.Optional(
          Type.String({ minLength: 1, maxLength: 253, description: 'the relying party id: a host name, no port' }),
        ),
        rpName: Type.Optional(
          Type.String({ minLength: 1, maxLength: 64, description: 'the name authenticators show' }),
        ),
        origins: Type.Optional(
          Type.Array(Type.String(), { description: 'origins of the pages that may register and use passkeys' }),
        ),
        userVerification: Type.Union([Type.Literal('required'), Type.Literal('preferred')], {
          description: 'required: the authenticator must verify the user (PIN, biometrics) at every use',
        }),
        challengeTtlSec: Int(30, 'a registration or sign-in challenge (and its cookie) expires after this'),
      },
      strict,
    ),
    /** Passwordless sign-in by a mailed one-time link (docs/passwordless.md), better-auth's magic-link routes. */
    magicLink: Type.Object(
      {
        enabled: Type.Boolean({ description: 'POST /sign-in/magic-link and GET /magic-link/verify' }),
        ttlSec: Int(30, 'a mailed sign-in link expires after this'),
        allowSignUp: Type.Boolean({ description: 'a link mailed to an unknown address registers it when used' }),
        sameBrowser: Type.Boolean({ description: 'a link works only in the browser that asked for it' }),
      },
      strict,
    ),
    /**
     * Passwordless sign-in by a mailed one-time code (docs/passwordless.md), better-auth's email-otp routes; the code
     * also verifies an address and resets a password.
     */
    emailOtp: Type.Object(
      {
        enabled: Type.Boolean({ description: 'the email-otp routes: sign-in, email verification, password reset' }),
        ttlSec: Int(30, 'a mailed code expires after this'),
        allowSignUp: Type.Boolean({ description: 'a sign-in code for an unknown address registers it when used' }),
        maxAttempts: Int(1, 'wrong tries one code allows before it is gone'),
        changeEmail: Type.Boolean({
          description: 'email-otp/request-email-change and change-email (better-auth changeEmail.enabled)',
        }),
      },
      strict,
    ),
    jwt: Type.Object(
      {
        alg: Type.Union([Type.Literal('EdDSA'), Type.Literal('ES256'), Type.Literal('RS256')]),
        expiresInSec: Int(30, 'lifetime of a GET /token JWT (capped by the session expiry)'),
        /** `aud` of issued tokens; unset = PUBLIC_URL. */
        audience: Type.Optional(Type.String({ minLength: 1 })),
        keyRefreshSec: Int(1, 'each instance reloads the key set this often (and on a rotation notice)'),
        keyRotationSec: Int(0, 'rotate the signing key when it is older; 0 = only by `cli jwks:rotate`'),
      },
      strict,
    ),
    captcha: Type.Object(
      {
        /** Unset: no bot check. */
        provider: Type.Optional(
          Type.Union([
            Type.Literal('cloudflare-turnstile'),
            Type.Literal('google-recaptcha'),
            Type.Literal('hcaptcha'),
          ]),
        ),
        secretKey: Type.Optional(Type.String({ minLength: 1 })),
        /** Sent to hCaptcha as `sitekey` (it checks the token was issued for this site key). */
        siteKey: Type.Optional(Type.String({ minLength: 1 })),
        minScore: Type.Number({ minimum: 0, maximum: 1, description: 'reCAPTCHA v3 lowest accepted score' }),
        /** Unset: the routes that declare the bot check; set: exactly these paths, the routes' declarations ignored. */
        endpoints: Type.Optional(
          Type.Array(Type.String({ pattern: '^/' }), { description: 'paths relative to the base path' }),
        ),
        /** The provider's verify endpoint; unset = the provider's real URL. */
        siteVerifyUrl: Type.Optional(Type.String({ minLength: 1 })),
        /** The widget script the hosted pages load; unset = the provider's own (docs/hosted-pages.md, bot check). */
        scriptUrl: Type.Optional(Type.String({ minLength: 1 })),
        timeoutMs: Int(100, 'verify call timeout'),
        failOpen: Type.Boolean({ description: 'let requests through when the provider cannot answer' }),
      },
      strict,
    ),
    organization: Type.Object(
      {
        allowUserToCreateOrganization: Type.Boolean(),
        organizationLimit: Int(0, 'organizations a user may create; 0 = no limit'),
        creatorRole: Type.String({ minLength: 1, description: 'spec §9: owner' }),
        membershipLimit: Int(1, 'members per organization (spec §9: 100)'),
        memberListLimit: Int(1, 'default page size of list-members (spec §9: 100)'),
        invitationExpiresInSec: Int(60, 'invitation lifetime (spec §9: 172800)'),
        invitationLimit: Int(0, 'pending invitations per organization; 0 = no limit'),
        cancelPendingInvitationsOnReInvite: Type.Boolean(),
        requireEmailVerificationOnInvitation: Type.Boolean(),
        disableOrganizationDeletion: Type.Boolean(),
        /** The product frontend's accept page; the invitation id is appended as a path segment. */
        invitationLinkBase: Type.Optional(Type.String({ minLength: 1 })),
        teams: Type.Object(
          {
            enabled: Type.Boolean(),
            defaultTeam: Type.Boolean(),
            maximumTeams: Int(0, 'teams per organization; 0 = no limit'),
            maximumMembersPerTeam: Int(0, 'members per team; 0 = no limit'),
            /** Per-team override of maximumMembersPerTeam, keyed by team id. */
            memberLimitOverrides: Type.Record(Type.String(), Int(0, 'members in this team; 0 = no limit')),
            allowRemovingAllTeams: Type.Boolean(),
          },
          strict,
        ),
        roles: Type.Record(Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.Array(Type.String()))),
      },
      strict,
    ),
    apiKey: Type.Object(
      {
        /** The request header that carries an API key (lowercase; better-auth's default x-api-key). */
        header: Type.String({ pattern: '^[a-z0-9-]+$', minLength: 1, maxLength: 64 }),
        /** A valid key in the header also signs a request in as its owner user (better-auth sessionForAPIKeys). */
        sessionForApiKeys: Type.Boolean(),
        defaultPrefix: Type.Optional(Type.String({ pattern: '^[A-Za-z0-9_-]{1,32}$' })),
        keyLength: Int(32, 'random characters per key, prefix excluded (base62: 64 ≈ 381 bits)'),
        startingCharacters: Int(0, 'characters of the key stored in clear as `start` for display'),
        rateLimit: Type.Object(
          {
            enabled: Type.Boolean({ description: 'per-key rate limits; off: no key is rate limited' }),
            timeWindowMs: Int(1000, 'default window of a new key'),
            max: Int(1, 'default requests per window of a new key'),
          },
          strict,
        ),
      },
      strict,
    ),
    admin: Type.Object(
      {
        defaultRole: Type.String({ minLength: 1, description: 'spec §9: user' }),
        adminRoles: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, description: 'spec §9: admin' }),
        adminUserIds: Type.Array(Type.String()),
        impersonationSessionDurationSec: Int(60, 'spec §9: 3600'),
        allowImpersonatingAdmins: Type.Boolean(),
        reuseListTotals: Type.Boolean({
          description: 'list-users answers a repeated search total while no user changed',
        }),
        defaultBanReason: Type.String({ minLength: 1, description: 'spec §9: No reason' }),
        defaultBanExpiresInSec: Type.Optional(Int(1, 'ban length when banExpiresIn is not given; unset = no expiry')),
        roles: Type.Record(Type.String({ minLength: 1 }), Type.Record(Type.String(), Type.Array(Type.String()))),
      },
      strict,
    ),
    /** The OpenID Provider (docs/oidc-provider.md): off unless enabled; clients from configuration. */
    oidcProvider: Type.Object(
      {
        enabled: Type.Boolean({ description: 'serve OAuth 2.1 / OpenID Connect under the issuer' }),
        /** Default PUBLIC_URL + the base path; must be on PUBLIC_URL's origin. */
        issuer: Type.Optional(Type.String({ minLength: 1 })),
        /** A JSON or YAML file whose `clients` are added to `clients`. */
        clientsFile: Type.Optional(Type.String({ minLength: 1 })),
        clients: Type.Array(OidcClientSchema),
        accessTokenTtlSec: Int(30, 'an access token (authorization code and client credentials) expires after this'),
        idTokenTtlSec: Int(30, 'an id token expires after this'),
        authorizationCodeTtlSec: Int(10, 'an authorization code expires after this'),
        refreshTokenTtlSec: Int(60, 'a refresh token expires after this (each rotation issues a new one)'),
        grantTtlSec: Int(60, "a user's grant to a client (what refresh tokens stand on) expires after this"),
        interactionTtlSec: Int(60, 'a sign-in or consent step in progress expires after this'),
      },
      strict,
    ),
  },
  strict,
);

export type Config = Static<typeof ConfigSchema>;
export type SessionConfig = Config['session'];
export type Argon2Config = Config['argon2'];
export type JwtConfig = Config['jwt'];
export type CaptchaConfig = Config['captcha'];
export type HostedPagesConfig = Config['hostedPages'];
export type SocialConfig = Config['social'];
export type SocialProviderConfig = SocialConfig['providers'][string];
export type TwoFactorConfig = Config['twoFactor'];
export type PasskeyConfig = Config['passkey'];
export type MagicLinkConfig = Config['magicLink'];
export type EmailOtpConfig = Config['emailOtp'];
export type OidcProviderConfig = Config['oidcProvider'];
export type OidcClientConfig = Static<typeof OidcClientSchema>;
