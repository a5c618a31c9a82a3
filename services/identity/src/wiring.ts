import type { Redis } from 'ioredis';
import type { Config } from './config';
import { deriveKeys } from './crypto/keys';
import type { PasswordHasher } from './crypto/password';
import { Sealer } from './crypto/sealed';
import { VerificationTokens } from './crypto/verification-token';
import { ApiError } from './errors';
import { type AccountFeature, createAccountFeature } from './features/account';
import {
  type AdminFeature,
  createAdminAccess,
  createAdminFeature,
  createLapsedBans,
  operatorRule,
} from './features/admin';
import { type ApiKeyFeature, createApiKeyFeature } from './features/api-key';
import { type AuditFeature, type AuditReadsFeature, createAuditFeature, createAuditReads } from './features/audit';
import { type CaptchaVerifier, createCaptcha } from './features/captcha';
import { createEmailOtpFeature } from './features/email-otp';
import { createIntrospectionFeature, type IntrospectionFeature } from './features/introspection';
import { createJwtFeature, type JwtFeature, type MemberRoleLookup, redisKeyEvents } from './features/jwt';
import { createMagicLinkFeature } from './features/magic-link';
import { createOAuthClientFeature, knownScopes, type OAuthClientFeature } from './features/oauth-client';
import { createOidcProviderFeature, type OidcProviderFeature, providerClients } from './features/oidc-provider';
import { createOrganizationFeature, type OrganizationFeature } from './features/organization';
import { createPasskeyFeature, type PasskeyFeature } from './features/passkey';
import { createSessionFeature, type SessionFeature } from './features/session';
import { createSignInFeature, type SignInFeature } from './features/sign-in';
import { createSocialFeature, type SocialFeature } from './features/social';
import { createSystemFeature } from './features/system';
import { createTwoFactorFeature, type TwoFactorFeature } from './features/two-factor';
import {
  createWebhookFeature,
  createWebhookRouting,
  type DeliveryLogger,
  type WebhookFeature,
  type WebhookOutbox,
} from './features/webhook';
import type { FeatureRoutes } from './http/web';
import type { MailOutbox } from './mail/mail-outbox';
import type { BackgroundTasks } from './shared/background';
import type { Clock } from './shared/clock';
import type { Sql } from './shared/sql';
import type { KeyValueStore } from './store';

/** The infrastructure the features are built on (context.ts connects it). */
export interface Infrastructure {
  config: Config;
  clock: Clock;
  sql: Sql;
  redis: Redis | null;
  store: KeyValueStore;
  hasher: PasswordHasher;
  mailOutbox: MailOutbox;
  background: BackgroundTasks;
  lifecycle: { draining: boolean };
  warn: (message: string) => void;
  /** Webhook messages are written to it in their event's transaction. */
  outbox: WebhookOutbox;
  /** The webhook deliveries made by this process log through it. */
  log: DeliveryLogger;
  /** Each webhook delivery attempt made by this process (metrics). */
  observeWebhook?: (outcome: 'succeeded' | 'failed', seconds: number) => void;
}

export interface Features {
  /** The audit trail's writer: built first, every feature that changes something records through it. */
  audit: AuditFeature;
  /** list-events (admin and organization). */
  auditReads: AuditReadsFeature;
  session: SessionFeature;
  account: AccountFeature;
  /** The second factor: its gate is the sign-in seam's. */
  twoFactor: TwoFactorFeature;
  /** The sign-in seam: every sign-in method's routes end in it (through `Web.signIn`). */
  signIn: SignInFeature;
  /** Passkeys: a sign-in of their own; an operator's second-factor reset removes them too. */
  passkey: PasskeyFeature;
  jwt: JwtFeature;
  introspection: IntrospectionFeature;
  social: SocialFeature;
  /** Built always (the JWT and API key features read memberships); its routes only when `features.organization`. */
  organization: OrganizationFeature;
  /** Null when `features.admin` is off. */
  admin: AdminFeature | null;
  /** The OpenID Provider (docs/oidc-provider.md); null unless OIDC_PROVIDER_ENABLED. */
  oidcProvider: OidcProviderFeature | null;
  apiKey: ApiKeyFeature;
  /** Webhooks on the audit events: endpoints (routes when `features.admin`), the follower and the delivery queue. */
  webhook: WebhookFeature;
  /** The registered OAuth clients: the admin routes (when `features.admin`) and the registry the provider reads. */
  oauthClient: OAuthClientFeature;
  /** The bot check when `captcha.provider` is set (a hook on the configured routes, no routes of its own). */
  captcha: CaptchaVerifier | null;
  /** The route tables in the order they are registered; a feature switched off has none. */
  routes: FeatureRoutes[];
}

/**
 * Calls each feature's factory with what it needs, in dependency order, and connects them: every way one feature
 * reaches into another is an argument here (no feature changes another at run time, nothing is bound late). A
 * feature gets another feature's public interface (its index.ts), never its internals.
 */
export function createFeatures(infra: Infrastructure): Features {
  const { config, clock, sql, store } = infra;
  // Asked by several features (audit reads, API keys, webhooks, the operator rule): the role model alone.
  const adminAccess = config.features.admin ? createAdminAccess(config) : null;
  // The webhooks follow every audit event in its transaction: their routing is made first, the writer with it.
  const webhookRouting = createWebhookRouting({ sql, outbox: infra.outbox, config, warn: infra.warn });
  const audit = createAuditFeature({ sql, clock, config, followers: [webhookRouting.follow] });
  const session = createSessionFeature({
    sql,
    cache: config.session.redisCacheTtlSec > 0 ? store : null,
    config: config.session,
    clock,
    audit: audit.events,
  });
  const { sessions } = session;
  const account = createAccountFeature({
    sql,
    store,
    hasher: infra.hasher,
    verificationTokens: new VerificationTokens(deriveKeys(config, 'verification-jwt'), clock.now),
    sessions,
    mail: infra.mailOutbox,
    background: infra.background,
    config,
    clock,
    audit: audit.events,
  });
  const organization = createOrganizationFeature({
    sql,
    sessions,
    config,
    clock,
    mail: infra.mailOutbox,
    audit: audit.events,
    // an invitation an operator sent stays valid while they hold the admin `organization: manage` permission
    operators: adminAccess ? operatorRule(adminAccess, account.accounts) : null,
  });
  const organizations = config.features.organization ? organization : null;
  const passkey = createPasskeyFeature({
    sql,
    accounts: account.accounts,
    sessions,
    organizations: organization.secondFactorPolicy,
    mail: infra.mailOutbox,
    config,
    clock,
    audit: audit.events,
  });
  const twoFactor = createTwoFactorFeature({
    sql,
    accounts: account.accounts,
    sessions,
    organizations: organization.secondFactorPolicy,
    sealer: new Sealer(deriveKeys(config, 'two-factor-secrets')),
    mail: infra.mailOutbox,
    config,
    clock,
    audit: audit.events,
    // an operator's reset of the second factor removes the passkeys too
    resettable: [passkey.resettable],
  });
  // Every sign-in ends here: the ban, the second factor (two-factor's gate), the session and its event.
  const signIn = createSignInFeature({
    sql,
    clock,
    sessions,
    secondFactor: twoFactor.gate,
    lapsedBans: config.features.admin ? createLapsedBans({ sql, clock, audit: audit.events }) : null,
  });
  const social = createSocialFeature({
    config,
    sql,
    store,
    clock,
    accounts: account.accounts,
    signIn: signIn.signIn,
    audit: audit.events,
    warn: infra.warn,
  });
  const admin = adminAccess
    ? createAdminFeature({
        sql,
        access: adminAccess,
        accounts: account.accounts,
        passwords: account.passwords,
        emails: account.emails,
        deletion: account.deletion,
        sessions,
        config,
        clock,
        organizations,
        linkedAccounts: (userId) => social.tokens.list(userId),
        audit: audit.events,
        secondFactors: twoFactor.twoFactor,
        passkeys: passkey.passkeys,
      })
    : null;
  const jwt = createJwtFeature({
    sql,
    config,
    clock,
    sealer: new Sealer(deriveKeys(config, 'jwks-private-keys')),
    events: infra.redis ? redisKeyEvents(infra.redis, config.redisPrefix) : null,
    memberRole: memberRoleLookup(organizations),
    audit: audit.events,
    warn: infra.warn,
    // the OpenID provider's id tokens verify with RS256 for clients that ask for no other algorithm
    companionAlgs: config.oidcProvider.enabled ? ['RS256'] : [],
  });
  // docs/oauth-clients.md: the applications operators register (admin routes), read by the provider
  const oauthClient = createOAuthClientFeature({ sql, clock, config, audit: audit.events, admin: adminAccess });
  // docs/oidc-provider.md: relying parties sign users in with the service's sessions, bans and signing keys; its
  // clients are the configuration's, then the registry's
  const oidcProvider = config.oidcProvider.enabled
    ? createOidcProviderFeature({
        config,
        sql,
        store,
        clock,
        keys: jwt.keys,
        clients: providerClients(config, oauthClient.registry, knownScopes(config.oauthClients)),
        sessions,
        getUser: (id) => account.accounts.getUser(id),
        lifecycle: infra.lifecycle,
        warn: infra.warn,
      })
    : null;
  const introspection = createIntrospectionFeature({ sessions, tokens: jwt.tokens });
  const apiKey = createApiKeyFeature({
    sql,
    store,
    config,
    clock,
    getUser: (id) => account.accounts.getUser(id),
    organizations: organizations?.access ?? null,
    admin: adminAccess,
    audit: audit.events,
  });
  const system = createSystemFeature({ sql, redis: infra.redis, lifecycle: infra.lifecycle });
  const webhook = createWebhookFeature({
    sql,
    clock,
    config,
    redis: infra.redis,
    sealer: new Sealer(deriveKeys(config, 'webhook-secrets')),
    audit: audit.events,
    events: audit.events,
    routing: webhookRouting,
    outbox: infra.outbox,
    admin: adminAccess,
    log: infra.log,
    observe: infra.observeWebhook,
  });
  // list-events asks the admin and organization features' permission checks: made after both.
  const auditReads = createAuditReads({
    sql,
    events: audit.events,
    admin: adminAccess,
    organization: organizations?.access ?? null,
  });
  const routes: Array<FeatureRoutes | null> = [
    system,
    session,
    account,
    twoFactor,
    passkey,
    jwt,
    introspection,
    oidcProvider,
    social,
    admin,
    apiKey,
    organizations,
    auditReads,
    webhook,
    oauthClient,
    // docs/passwordless.md: a mailed one-time link, ending in the sign-in seam (off unless MAGIC_LINK_ENABLED)
    config.magicLink.enabled
      ? createMagicLinkFeature({
          ...infra,
          mail: infra.mailOutbox,
          accounts: account.accounts,
          signIn: signIn.signIn,
          audit: audit.events,
        })
      : null,
    // docs/passwordless.md: a mailed one-time code, a sign-in ending in the sign-in seam (off unless EMAIL_OTP_ENABLED)
    config.emailOtp.enabled
      ? createEmailOtpFeature({
          ...infra,
          mail: infra.mailOutbox,
          accounts: account.accounts,
          emails: account.emails,
          passwords: account.passwords,
          sessions,
          signIn: signIn.signIn,
          attempts: twoFactor.attempts,
          audit: audit.events,
        })
      : null,
  ];
  return {
    audit,
    auditReads,
    session,
    account,
    twoFactor,
    signIn,
    passkey,
    jwt,
    introspection,
    social,
    organization,
    admin,
    oidcProvider,
    apiKey,
    webhook,
    oauthClient,
    captcha: createCaptcha(config.captcha, infra.warn),
    routes: routes.filter((r): r is FeatureRoutes => r !== null),
  };
}

/**
 * The user's role in the active organization, for `/token` claims: null when not a member, when the organization
 * requires a second factor the user does not hold, or when the feature is off.
 */
function memberRoleLookup(organizations: OrganizationFeature | null): MemberRoleLookup {
  if (!organizations) return async () => null;
  return (organizationId, user) =>
    organizations.access.self(organizationId, user, 'MEMBER_NOT_FOUND').then(
      (member) => member.role,
      (error) => {
        if (error instanceof ApiError) return null;
        throw error;
      },
    );
}
