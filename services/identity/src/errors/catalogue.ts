/**
 * The error catalogue: every message of spec §8 (verbatim) with a stable code and status.
 * Clients branch on `code`. Entries not in §8 live in EXTRA_ERRORS, each with its reason;
 * test/contract/catalogue.test.ts checks both directions against the spec.
 */
export interface CatalogueEntry {
  status: number;
  message: string;
}

const e = (status: number, message: string): CatalogueEntry => ({ status, message });

/** spec §8 "Account messages". */
export const ACCOUNT_ERRORS = {
  FAILED_TO_CREATE_SESSION: e(500, 'Failed to create session'),
  FAILED_TO_GET_SESSION: e(500, 'Failed to get session'),
  INVALID_PASSWORD: e(400, 'Invalid password'),
  INVALID_EMAIL: e(400, 'Invalid email'),
  INVALID_EMAIL_OR_PASSWORD: e(401, 'Invalid email or password'),
  PROVIDER_NOT_FOUND: e(404, 'Provider not found'),
  /** 400 for reset and deletion tokens; an id token refused at social sign-in or link-social answers 401 (social.service.ts). */
  INVALID_TOKEN: e(400, 'invalid token'),
  ID_TOKEN_NOT_SUPPORTED: e(400, 'id_token not supported'),
  FAILED_TO_GET_USER_INFO: e(401, 'Failed to get user info'),
  USER_EMAIL_NOT_FOUND: e(400, 'User email not found'),
  EMAIL_NOT_VERIFIED: e(403, 'Email not verified'),
  PASSWORD_TOO_SHORT: e(400, 'Password too short'),
  PASSWORD_TOO_LONG: e(400, 'Password too long'),
  USER_ALREADY_EXISTS: e(422, 'User already exists'),
  CREDENTIAL_ACCOUNT_NOT_FOUND: e(400, 'Credential account not found'),
  SESSION_EXPIRED: e(401, 'Session expired. Re-authenticate to perform this action.'),
  FAILED_TO_UNLINK_LAST_ACCOUNT: e(400, "You can't unlink your last account"),
  ACCOUNT_NOT_FOUND: e(400, 'Account not found'),
  CALLBACK_URL_REQUIRED: e(400, 'callbackURL is required'),
  VERIFICATION_EMAIL_NOT_ENABLED: e(400, "Verification email isn't enabled"),
  RESET_PASSWORD_DISABLED: e(400, "Reset password isn't enabled"),
  EMAIL_PASSWORD_DISABLED: e(400, 'Email and password is not enabled'),
  CHANGE_EMAIL_DISABLED: e(400, 'Change email is disabled'),
  SESSION_NOT_FRESH: e(403, 'Session is not fresh'),
  SESSION_NOT_FOUND: e(404, 'Session not found'),
  USER_ALREADY_HAS_PASSWORD: e(400, 'user already has a password'),
  LINKING_NOT_ALLOWED: e(401, 'Account not linked - linking not allowed'),
  LINKING_DIFFERENT_EMAILS_NOT_ALLOWED: e(401, 'Account not linked - different emails not allowed'),
  UNABLE_TO_CREATE_ACCOUNT: e(417, 'Account not linked - unable to create account'),
  INVALID_CALLBACK_URL: e(403, 'Invalid callbackURL'),
} as const;

/** spec §8 "Organization messages". */
export const ORGANIZATION_ERRORS = {
  NOT_ALLOWED_TO_CREATE_ORGANIZATION: e(403, 'You are not allowed to create a new organization'),
  ORGANIZATION_LIMIT_REACHED: e(403, 'You have reached the maximum number of organizations'),
  ORGANIZATION_ALREADY_EXISTS: e(400, 'Organization already exists'),
  ORGANIZATION_NOT_FOUND: e(404, 'Organization not found'),
  USER_IS_NOT_A_MEMBER_OF_THE_ORGANIZATION: e(403, 'User is not a member of the organization'),
  NOT_ALLOWED_TO_UPDATE_ORGANIZATION: e(403, 'You are not allowed to update this organization'),
  NOT_ALLOWED_TO_DELETE_ORGANIZATION: e(403, 'You are not allowed to delete this organization'),
  NO_ACTIVE_ORGANIZATION: e(400, 'No active organization'),
  MEMBER_NOT_FOUND: e(404, 'Member not found'),
  TEAM_NOT_FOUND: e(404, 'Team not found'),
  CANNOT_LEAVE_AS_ONLY_OWNER: e(400, 'You cannot leave the organization as the only owner'),
  NOT_ALLOWED_TO_DELETE_MEMBER: e(403, 'You are not allowed to delete this member'),
  INVITATION_NOT_FOUND: e(404, 'Invitation not found'),
  NOT_THE_RECIPIENT_OF_THE_INVITATION: e(403, 'You are not the recipient of the invitation'),
  NOT_ALLOWED_TO_CANCEL_INVITATION: e(403, 'You are not allowed to cancel this invitation'),
  INVITER_NO_LONGER_A_MEMBER: e(403, 'Inviter is no longer a member of the organization'),
  FAILED_TO_RETRIEVE_INVITATION: e(400, 'Failed to retrieve invitation'),
  UNABLE_TO_REMOVE_LAST_TEAM: e(400, 'Unable to remove last team'),
  ORGANIZATION_MEMBERSHIP_LIMIT_REACHED: e(403, 'Organization membership limit reached'),
  NOT_ALLOWED_TO_DELETE_TEAMS: e(403, 'You are not allowed to delete teams in this organization'),
  NOT_ALLOWED_TO_UPDATE_TEAM: e(403, 'You are not allowed to update this team'),
  NOT_ALLOWED_TO_DELETE_TEAM: e(403, 'You are not allowed to delete this team'),
  TEAM_MEMBER_LIMIT_REACHED: e(403, 'Team member limit reached'),
  NOT_AUTHENTICATED: e(401, 'Not authenticated'),
  ORGANIZATION_ID_REQUIRED: e(400, 'Organization ID is required'),
  NOT_A_MEMBER_OF_THIS_ORGANIZATION: e(403, 'You are not a member of this organization'),
  USER_NOT_FOUND: e(404, 'User not found'),
  SLUG_IS_TAKEN: e(400, 'slug is taken'),
} as const;

/** spec §8 "Admin messages". The nine "not allowed" texts follow the spec's list of actions. */
export const ADMIN_ERRORS = {
  FAILED_TO_CREATE_USER: e(500, 'Failed to create user'),
  CANNOT_BAN_YOURSELF: e(400, 'You cannot ban yourself'),
  NOT_ALLOWED_TO_CHANGE_USERS_ROLE: e(403, 'You are not allowed to change users role'),
  NOT_ALLOWED_TO_CREATE_USERS: e(403, 'You are not allowed to create users'),
  NOT_ALLOWED_TO_LIST_USERS: e(403, 'You are not allowed to list users'),
  NOT_ALLOWED_TO_LIST_USERS_SESSIONS: e(403, 'You are not allowed to list users sessions'),
  NOT_ALLOWED_TO_BAN_USERS: e(403, 'You are not allowed to ban users'),
  NOT_ALLOWED_TO_IMPERSONATE_USERS: e(403, 'You are not allowed to impersonate users'),
  NOT_ALLOWED_TO_REVOKE_USERS_SESSIONS: e(403, 'You are not allowed to revoke users sessions'),
  NOT_ALLOWED_TO_DELETE_USERS: e(403, 'You are not allowed to delete users'),
  NOT_ALLOWED_TO_SET_USERS_PASSWORD: e(403, 'You are not allowed to set users password'),
  BANNED_USER: e(
    403,
    'You have been banned from this application. Please contact support if you believe this is an error.',
  ),
  NOT_IMPERSONATING: e(400, 'You are not impersonating anyone'),
  FAILED_TO_FIND_USER: e(404, 'Failed to find user'),
  FAILED_TO_FIND_ADMIN_SESSION: e(400, 'Failed to find admin session'),
  INVALID_PERMISSION_CHECK: e(400, 'invalid permission check. no permission(s) were passed.'),
  ADMIN_USER_NOT_FOUND: e(404, 'user not found'),
} as const;

/** spec §8 "API key messages". RATE_LIMITED also answers route rate limits (one text for one condition). */
export const API_KEY_ERRORS = {
  KEY_NOT_FOUND: e(404, 'API Key not found'),
  KEY_DISABLED: e(401, 'API Key is disabled'),
  KEY_EXPIRED: e(401, 'API Key has expired'),
  USAGE_EXCEEDED: e(429, 'API Key has reached its usage limit'),
  RATE_LIMITED: e(429, 'Rate limit exceeded.'),
  INVALID_API_KEY: e(401, 'Invalid API key.'),
  FAILED_TO_UPDATE_API_KEY: e(500, 'Failed to update API key.'),
} as const;

/** Entries the spec does not list in §8, each with the reason it exists. */
export const EXTRA_ERRORS = {
  /** spec §5: change-email refusals (rule text, not in §8). */
  EMAIL_IS_THE_SAME: e(400, 'Email is the same'),
  COULDNT_UPDATE_EMAIL: e(400, "Couldn't update your email"),
  /** spec §5: verification mail only to the signed-in user's own, unverified email. */
  EMAIL_MISMATCH: e(400, 'Email mismatch'),
  EMAIL_ALREADY_VERIFIED: e(400, 'Email is already verified'),
  /** account deletion refused when the feature is off. */
  DELETE_USER_DISABLED: e(400, 'Delete user is disabled'),
  /** spec §5: "Invalid callbackURL (or the matching name)" for the other redirect parameters. */
  INVALID_REDIRECT_TO: e(403, 'Invalid redirectTo'),
  INVALID_ERROR_CALLBACK_URL: e(403, 'Invalid errorCallbackURL'),
  INVALID_NEW_USER_CALLBACK_URL: e(403, 'Invalid newUserCallbackURL'),
  /** spec §6: "refused as unauthorized"; a route that needs a session got none. */
  UNAUTHORIZED: e(401, 'Unauthorized'),
  /** spec §5 origin check on cookie-carrying POSTs (cross-site requests). */
  INVALID_ORIGIN: e(403, 'Invalid origin'),
  MISSING_OR_NULL_ORIGIN: e(403, 'Missing or null Origin'),
  /** configured "sign-up disabled". */
  SIGN_UP_DISABLED: e(400, 'Sign up is disabled'),
  /** Server-only routes (spec §2 set-password) refuse requests without the service credential. */
  SERVER_ONLY: e(403, 'This endpoint is only available to trusted servers'),
  /** Schema validation: a field of the wrong type, size or shape. `details` names it. */
  VALIDATION_ERROR: e(400, 'Invalid request'),
  /** Mass assignment: a field the client may not set, or an unknown one. */
  FIELD_NOT_ALLOWED: e(400, 'Field not allowed'),
  INVALID_JSON: e(400, 'Malformed request body'),
  PAYLOAD_TOO_LARGE: e(413, 'Request body too large'),
  UNSUPPORTED_MEDIA_TYPE: e(415, 'Unsupported content type'),
  NOT_FOUND: e(404, 'Not found'),
  /** A built file (console, hosted pages) asked with an `If-Match` or `If-Unmodified-Since` it does not meet. */
  PRECONDITION_FAILED: e(412, 'Precondition failed'),
  /** spec §7: a call without a body arrives as GET; on a route that changes state a GET may not act (CSRF). */
  METHOD_NOT_ALLOWED: e(405, 'Use POST for this call'),
  /**
   * the operator calls the spec does not show (get-user, update-user, list-organizations); an
   * operator acting on organizations they are not a member of (admin/organization/*).
   */
  NOT_ALLOWED_TO_GET_USER: e(403, 'You are not allowed to get user'),
  NOT_ALLOWED_TO_UPDATE_USERS: e(403, 'You are not allowed to update users'),
  NOT_ALLOWED_TO_LIST_ORGANIZATIONS: e(403, 'You are not allowed to list organizations'),
  NOT_ALLOWED_TO_MANAGE_ORGANIZATIONS: e(403, 'You are not allowed to manage organizations'),
  NO_DATA_TO_UPDATE: e(400, 'No data to update'),
  /**
   * list-users' filter parameters (docs/admin.md, an extension beside spec §7's filterField): a field filtered both
   * by filterField and by its own parameter is refused, not silently narrowed to one of them.
   */
  USER_FILTERED_TWICE: e(400, 'A field is filtered twice'),
  /** admins cannot impersonate other admins unless configured. */
  CANNOT_IMPERSONATE_ADMINS: e(403, 'You cannot impersonate admins'),
  /** An operator cannot delete their own account through remove-user (better-auth's rule). */
  CANNOT_REMOVE_YOURSELF: e(400, 'You cannot remove yourself'),
  /** Role escalation guard: set-role and create-user accept only configured role names. */
  NOT_ALLOWED_TO_SET_NON_EXISTENT_ROLE: e(400, 'You are not allowed to set a non-existent role value'),
  /** spec §5: has-permission needs a user id or role unless a session exists. */
  USER_ID_OR_ROLE_REQUIRED: e(400, 'user id or role is required'),
  /**
   * PostgreSQL cannot serve the request now: stopped, restarting, hung, or every pool connection busy past
   * DB_CONNECT_TIMEOUT_MS (errors/handler.ts, db/unavailable.ts). Sent with Retry-After: a retry may pass.
   */
  SERVICE_UNAVAILABLE: e(503, 'Service temporarily unavailable, try again later'),
  INTERNAL_SERVER_ERROR: e(500, 'Internal server error'),
  /**
   * Organization refusals the spec's rules imply but §8 does not list; texts and codes as
   * better-auth's organization plugin has them, so its client's error codes match.
   */
  NOT_ALLOWED_TO_INVITE_USERS: e(403, 'You are not allowed to invite users to this organization'),
  NOT_ALLOWED_TO_INVITE_WITH_ROLE: e(403, 'You are not allowed to invite a user with this role'),
  USER_IS_ALREADY_A_MEMBER: e(400, 'User is already a member of this organization'),
  USER_IS_ALREADY_INVITED: e(400, 'User is already invited to this organization'),
  INVITATION_LIMIT_REACHED: e(403, 'Invitation limit reached'),
  EMAIL_VERIFICATION_REQUIRED_FOR_INVITATION: e(
    403,
    'Email verification required before accepting or rejecting invitation',
  ),
  NOT_ALLOWED_TO_UPDATE_MEMBER: e(403, 'You are not allowed to update this member'),
  CANNOT_LEAVE_WITHOUT_AN_OWNER: e(400, 'You cannot leave the organization without an owner'),
  ROLE_NOT_FOUND: e(400, 'Role not found'),
  NOT_ALLOWED_TO_CREATE_TEAMS: e(403, 'You are not allowed to create teams in this organization'),
  TEAM_LIMIT_REACHED: e(400, 'You have reached the maximum number of teams'),
  NOT_ALLOWED_TO_ADD_TEAM_MEMBER: e(403, 'You are not allowed to create a new member'),
  NOT_ALLOWED_TO_REMOVE_TEAM_MEMBER: e(403, 'You are not allowed to remove a team member'),
  USER_IS_NOT_A_MEMBER_OF_THE_TEAM: e(400, 'User is not a member of the team'),
  /**
   * API keys: better-auth's api-key refusals the spec does not list. Quotas, rate limits and
   * permissions are set by trusted callers only (a service credential or an admin), as better-auth's
   * server-only properties; an organization's keys are managed by members who may update it.
   */
  SERVER_ONLY_PROPERTY: e(400, "The property you're trying to set can only be set by a trusted server or an admin"),
  NOT_ALLOWED_TO_MANAGE_API_KEYS: e(403, 'You are not allowed to manage API keys of this organization'),
  /** A route that needs a real session (docs/api-keys.md), or a key that is no user's (organization, service). */
  API_KEY_SESSION_NOT_ALLOWED: e(403, 'API keys are not accepted for this action'),
  /**
   * Bot checks, better-auth's captcha plugin texts. 400: the request lacks the token; 403: the provider
   * refused it; 503 (not better-auth's 500): the provider could not answer in time, nothing broke here and a
   * retry may pass (fail closed unless captcha.failOpen).
   */
  MISSING_CAPTCHA_RESPONSE: e(400, 'Missing CAPTCHA response'),
  CAPTCHA_VERIFICATION_FAILED: e(403, 'Captcha verification failed'),
  CAPTCHA_UNAVAILABLE: e(503, 'Something went wrong'),
  /**
   * docs/audit.md audit trail reads: admin list-events needs the admin `audit: read` permission; an
   * organization's list-events needs the organization `audit: read` permission (owner and admin by default).
   */
  NOT_ALLOWED_TO_LIST_EVENTS: e(403, 'You are not allowed to list audit events'),
  NOT_ALLOWED_TO_READ_ORGANIZATION_EVENTS: e(403, "You are not allowed to read this organization's audit events"),
  /**
   * docs/webhooks.md: the admin `webhook` permission (create, read, update, delete); a URL the service will not
   * call (not http(s), credentials in it, and in production not https or an address that is not public unless
   * allow-listed); an event type or prefix that names no audit event type; redeliver of an event not (or no longer)
   * in the audit trail.
   */
  NOT_ALLOWED_TO_CREATE_WEBHOOKS: e(403, 'You are not allowed to create webhook endpoints'),
  NOT_ALLOWED_TO_READ_WEBHOOKS: e(403, 'You are not allowed to read webhook endpoints'),
  NOT_ALLOWED_TO_UPDATE_WEBHOOKS: e(403, 'You are not allowed to update webhook endpoints'),
  NOT_ALLOWED_TO_DELETE_WEBHOOKS: e(403, 'You are not allowed to delete webhook endpoints'),
  WEBHOOK_ENDPOINT_NOT_FOUND: e(404, 'Webhook endpoint not found'),
  INVALID_WEBHOOK_URL: e(400, 'Invalid webhook URL'),
  WEBHOOK_URL_NOT_ALLOWED: e(400, 'Webhook URL not allowed'),
  INVALID_WEBHOOK_EVENT_TYPE: e(400, 'Unknown webhook event type'),
  WEBHOOK_EVENT_NOT_FOUND: e(404, 'Event not found'),
  /**
   * docs/oauth-clients.md: the admin `oauthClient` permission (create, read, update, delete; rotating a secret is an
   * update); the registration rules for a client's URIs, grant types, scopes, PKCE and authentication method. The
   * details of a refusal name the field and what is wrong with it.
   */
  NOT_ALLOWED_TO_CREATE_OAUTH_CLIENTS: e(403, 'You are not allowed to create OAuth clients'),
  NOT_ALLOWED_TO_READ_OAUTH_CLIENTS: e(403, 'You are not allowed to read OAuth clients'),
  NOT_ALLOWED_TO_UPDATE_OAUTH_CLIENTS: e(403, 'You are not allowed to update OAuth clients'),
  NOT_ALLOWED_TO_DELETE_OAUTH_CLIENTS: e(403, 'You are not allowed to delete OAuth clients'),
  OAUTH_CLIENT_NOT_FOUND: e(404, 'OAuth client not found'),
  INVALID_REDIRECT_URI: e(400, 'Invalid redirect URI'),
  INVALID_LOGO_URI: e(400, 'Invalid logo URI'),
  INVALID_BACKCHANNEL_LOGOUT_URI: e(400, 'Invalid back-channel logout URI'),
  REDIRECT_URI_REQUIRED: e(400, 'The authorization code grant needs at least one redirect URI'),
  GRANT_TYPE_NOT_ALLOWED: e(400, 'Grant type not allowed for this client'),
  UNKNOWN_SCOPE: e(400, 'Unknown scope'),
  PUBLIC_CLIENT_REQUIRES_PKCE: e(400, 'Public clients must use PKCE'),
  INVALID_TOKEN_ENDPOINT_AUTH_METHOD: e(400, 'Token endpoint authentication method not allowed for this client type'),
  OAUTH_CLIENT_HAS_NO_SECRET: e(400, 'Public clients have no secret'),
  /**
   * The second factor (docs/two-factor.md): better-auth's two-factor plugin's codes, texts and statuses, so its
   * published client's `twoFactorClient` reads them unchanged.
   */
  TOTP_NOT_ENABLED: e(400, 'TOTP not enabled'),
  TOTP_ALREADY_ENABLED: e(400, 'TOTP is already enabled'),
  TWO_FACTOR_NOT_ENABLED: e(400, "Two factor isn't enabled"),
  BACKUP_CODES_NOT_ENABLED: e(400, "Backup codes aren't enabled"),
  INVALID_BACKUP_CODE: e(401, 'Invalid backup code'),
  INVALID_CODE: e(401, 'Invalid code'),
  TOO_MANY_ATTEMPTS_REQUEST_NEW_CODE: e(400, 'Too many attempts. Please request a new code.'),
  ACCOUNT_TEMPORARILY_LOCKED: e(
    429,
    'Too many failed verification attempts. Your account is temporarily locked. Please try again later.',
  ),
  INVALID_TWO_FACTOR_COOKIE: e(401, 'Invalid two factor cookie'),
  /**
   * docs/two-factor.md "For operators": admin reset-two-factor needs the admin `user: set-password` permission (it
   * removes a credential, as setting a password replaces one); an operator removes their own second factor with
   * the password (two-factor/disable), never through the reset.
   */
  NOT_ALLOWED_TO_RESET_USERS_TWO_FACTOR: e(403, "You are not allowed to reset users' second factor"),
  CANNOT_RESET_YOUR_OWN_TWO_FACTOR: e(400, 'You cannot reset your own second factor'),
  /**
   * docs/two-factor.md "Policies": the organization's `requireTwoFactor` is on and the member acting in it (any
   * organization route that names it or acts on the active one, set-active included) has no second factor; or a
   * member without one turns the policy on.
   */
  ORGANIZATION_REQUIRES_TWO_FACTOR: e(
    403,
    'This organization requires a second factor. Enable two-factor authentication to act in it.',
  ),
  /**
   * docs/two-factor.md "Policies": TWO_FACTOR_REQUIRED_FOR_ADMINS is on and the caller's role grants the admin
   * permission asked for, but the caller has no second factor (enrol first: the two-factor routes stay open).
   */
  TWO_FACTOR_REQUIRED: e(403, 'A second factor is required for this action. Enable two-factor authentication first.'),
  /**
   * docs/security.md "The secret and its rotation": a value sealed at rest (a TOTP secret, a signing key) that no
   * configured secret opens, because the secret it was sealed under was dropped from AUTH_SECRET_PREVIOUS before
   * `secrets:reseal` ran. 503: nothing the client sent is wrong, and the operator fixes it (the log line says how).
   */
  STORED_SECRET_UNREADABLE: e(503, 'A stored secret cannot be read with the configured secrets'),
  /**
   * Passkeys (docs/two-factor.md "Passkeys"): better-auth's passkey plugin's codes and texts, so its published
   * client's `passkeyClient` reads them unchanged, with its statuses except where better-auth answers 500 for a bad
   * request (a registration that does not verify is 400 here) or tells another user's passkey from an unknown one
   * (both are PASSKEY_NOT_FOUND here, so an id reveals nothing).
   */
  CHALLENGE_NOT_FOUND: e(400, 'Challenge not found'),
  YOU_ARE_NOT_ALLOWED_TO_REGISTER_THIS_PASSKEY: e(401, 'You are not allowed to register this passkey'),
  FAILED_TO_VERIFY_REGISTRATION: e(400, 'Failed to verify registration'),
  /** The authenticator's credential is registered already (to this user or another). */
  PREVIOUSLY_REGISTERED: e(400, 'Previously registered'),
  /** 404 on update and delete; verify-authentication answers it with 401, as better-auth does. */
  PASSKEY_NOT_FOUND: e(404, 'Passkey not found'),
  /**
   * 400: the assertion is malformed or names another challenge, origin or relying party, or lacks the user
   * verification asked for; 401: its signature does not verify, or its signature counter went back (a cloned
   * authenticator).
   */
  AUTHENTICATION_FAILED: e(400, 'Authentication failed'),
  /**
   * docs/passwordless.md: a sign-in link bound to the browser that asked for it (magicLink.sameBrowser), opened in
   * another one. The link stays usable where it was asked for.
   */
  MAGIC_LINK_OTHER_BROWSER: e(403, 'This sign-in link was asked for in another browser. Open it there.'),
  /**
   * docs/passwordless.md: better-auth's email-otp codes, texts and statuses, so its published `emailOTPClient` reads
   * them unchanged. INVALID_OTP also answers an unknown address, a used code and a code of another kind.
   */
  OTP_EXPIRED: e(400, 'OTP expired'),
  INVALID_OTP: e(400, 'Invalid OTP'),
  TOO_MANY_ATTEMPTS: e(403, 'Too many attempts'),
  /** send-verification-otp's `change-email`: better-auth sends that code from another route. */
  INVALID_OTP_TYPE: e(400, 'Invalid OTP type'),
  /**
   * email-otp/request-email-change of a verified address without a code mailed to it: spec §4 asks the old address
   * to confirm a change (better-auth's changeEmail.verifyCurrentEmail, its text).
   */
  CURRENT_EMAIL_OTP_REQUIRED: e(400, 'OTP is required to verify current email'),
  /** deletion "can be disabled" (better-auth answers 404 with this text). */
  ORGANIZATION_DELETION_DISABLED: e(404, 'Organization deletion is disabled'),
  /**
   * docs/oidc-provider.md: an authorization request's interaction that is not there for this browser or user
   * (expired, answered, another user's, or not at the step asked for).
   */
  INTERACTION_NOT_FOUND: e(404, 'Authorization request not found or expired'),
} as const;

export const CATALOGUE = {
  ...ACCOUNT_ERRORS,
  ...ORGANIZATION_ERRORS,
  ...ADMIN_ERRORS,
  ...API_KEY_ERRORS,
  ...EXTRA_ERRORS,
} as const;

export type ErrorCode = keyof typeof CATALOGUE;

/** Texts of successful answers the spec gives verbatim. */
export const MESSAGES = {
  RESET_PASSWORD_REQUESTED: 'If this email exists in our system, check your email for the reset link.',
  USER_DELETED: 'User deleted',
  VERIFICATION_EMAIL_SENT: 'Verification email sent',
  TEAM_REMOVED: 'Team removed successfully.',
  TEAM_MEMBER_REMOVED: 'Team member removed successfully.',
  DEFAULT_BAN_REASON: 'No reason',
} as const;

/** spec §8 "Redirect error codes": appended as ?error=<code>. */
export const REDIRECT_ERRORS = {
  verifyEmail: ['token_expired', 'invalid_token', 'user_not_found', 'unauthorized'],
  callback: [
    'invalid_callback_request',
    'state_not_found',
    'please_restart_the_process',
    'no_code',
    'oauth_provider_not_found',
    'invalid_code',
    'unable_to_get_user_info',
    'email_not_found',
    'no_callback_url',
    'unable_to_link_account',
    'account_already_linked_to_different_user',
    'internal_server_error',
    'signup_disabled',
    'account_not_linked',
  ],
  resetPassword: ['INVALID_TOKEN'],
} as const;
