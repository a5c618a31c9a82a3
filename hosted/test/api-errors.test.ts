import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGUE } from '../../services/identity/src/errors/catalogue';
import { apiErrorKey, LANGUAGES, loadCatalogue, type MessageKey } from '../src/i18n';
import { API_ERROR_WORDING } from '../src/i18n/api-errors';

/**
 * Every error code of the API the pages can receive is said in the pages' own words, in each of the eight languages:
 * never the API's terse sentence ("User already exists", no full stop), never the generic fallback.
 *
 * "Can receive" is worked out from the sources: the API calls the pages make (found in hosted/src), the service
 * files that hold the rules of those routes, and the layers every route goes through (validation, origin check,
 * rate limits, the error handler, the bot check). Every catalogue code named in those files is reachable, unless
 * NOT_FROM_THE_PAGES says which other route of the same file is the only one to answer it. A new refusal in one of
 * those files fails this test until the pages word it (src/i18n/api-errors.ts) or it is shown to be unreachable.
 */
const ROOT = join(import.meta.dirname, '..', '..');
const SRC = join(ROOT, 'services', 'identity', 'src');
const PAGES = join(ROOT, 'hosted', 'src');

/** The better-auth client's methods the pages call → the API paths each one calls. */
const CLIENT_CALLS: Record<string, string[]> = {
  getSession: ['/get-session'],
  signOut: ['/sign-out'],
  'signIn.email': ['/sign-in/email'],
  'signIn.social': ['/sign-in/social'],
  'signIn.passkey': ['/passkey/generate-authenticate-options', '/passkey/verify-authentication'],
  'signUp.email': ['/sign-up/email'],
  requestPasswordReset: ['/request-password-reset'],
  resetPassword: ['/reset-password'],
  sendVerificationEmail: ['/send-verification-email'],
  deleteUser: ['/delete-user'],
  'twoFactor.enable': ['/two-factor/enable'],
  'twoFactor.disable': ['/two-factor/disable'],
  'twoFactor.generateBackupCodes': ['/two-factor/generate-backup-codes'],
  'twoFactor.verifyTotp': ['/two-factor/verify-totp'],
  'twoFactor.verifyBackupCode': ['/two-factor/verify-backup-code'],
  'passkey.addPasskey': ['/passkey/generate-register-options', '/passkey/verify-registration'],
  'passkey.listUserPasskeys': ['/passkey/list-user-passkeys'],
  'passkey.updatePasskey': ['/passkey/update-passkey'],
  'passkey.deletePasskey': ['/passkey/delete-passkey'],
  'signIn.magicLink': ['/sign-in/magic-link'],
  'magicLink.verify': ['/magic-link/verify'],
  'emailOtp.sendVerificationOtp': ['/email-otp/send-verification-otp'],
  'signIn.emailOtp': ['/sign-in/email-otp'],
};

/**
 * Each API path the pages may call → the routes file that declares it (relative to the service's src/) and the
 * files holding its rules. The routes file must declare the path (checked), so a moved route fails here.
 */
const ACCOUNT = ['features/account/account.service.ts', 'features/account/sign-in-throttle.ts'];
const SIGN_IN = [...ACCOUNT, 'features/sign-in/seam.ts'];
const TWO_FACTOR = ['features/two-factor/two-factor.routes.ts', 'features/two-factor/two-factor.service.ts'];
const PASSKEY = ['features/passkey/passkey.routes.ts', 'features/passkey/passkey.service.ts'];
const EMAIL_OTP = [
  'features/email-otp/email-otp.routes.ts',
  'features/email-otp/email-otp.service.ts',
  'features/email-otp/guess-budget.ts',
];
const MAGIC_LINK = ['features/magic-link/magic-link.routes.ts', 'features/magic-link/magic-link.service.ts'];
const INVITATION = [
  'features/organization/invitation.routes.ts',
  'features/organization/invitation.service.ts',
  'features/organization/accept.service.ts',
  'features/organization/session.ts',
  'features/organization/second-factor-policy.ts',
];
const ROUTES: Record<string, { declared: [file: string, path: string]; rules: string[] }> = {
  '/get-session': {
    declared: ['features/session/session.routes.ts', '/get-session'],
    rules: ['features/session/get-session.ts', 'features/session/session.service.ts'],
  },
  '/sign-out': { declared: ['features/session/session.routes.ts', '/sign-out'], rules: [] },
  '/sign-in/email': { declared: ['features/account/account.routes.ts', '/sign-in/email'], rules: SIGN_IN },
  '/sign-up/email': { declared: ['features/account/account.routes.ts', '/sign-up/email'], rules: ACCOUNT },
  '/sign-in/social': {
    declared: ['features/social/sign-in.routes.ts', '/sign-in/social'],
    rules: ['features/social/social.service.ts'],
  },
  '/request-password-reset': {
    declared: ['features/account/password.routes.ts', '/request-password-reset'],
    rules: ['features/account/password.service.ts'],
  },
  '/reset-password': {
    declared: ['features/account/password.routes.ts', '/reset-password'],
    rules: ['features/account/password.service.ts'],
  },
  '/send-verification-email': {
    declared: ['features/account/email.routes.ts', '/send-verification-email'],
    rules: ['features/account/email.service.ts'],
  },
  '/delete-user': {
    declared: ['features/account/deletion.routes.ts', '/delete-user'],
    rules: ['features/account/deletion.service.ts'],
  },
  ...Object.fromEntries(
    ['enable', 'disable', 'generate-backup-codes', 'verify-totp', 'verify-backup-code', 'status'].map((name) => [
      `/two-factor/${name}`,
      { declared: [TWO_FACTOR[0], `/two-factor/${name}`] as [string, string], rules: TWO_FACTOR },
    ]),
  ),
  ...Object.fromEntries(
    [
      'generate-authenticate-options',
      'verify-authentication',
      'generate-register-options',
      'verify-registration',
      'list-user-passkeys',
      'update-passkey',
      'delete-passkey',
    ].map((name) => [
      `/passkey/${name}`,
      { declared: [PASSKEY[0], `/passkey/${name}`] as [string, string], rules: PASSKEY },
    ]),
  ),
  // A mailed link ends in the sign-in seam: a ban refuses it there.
  ...Object.fromEntries(
    ['/sign-in/magic-link', '/magic-link/verify'].map((path) => [
      path,
      { declared: [MAGIC_LINK[0], path] as [string, string], rules: [...MAGIC_LINK, 'features/sign-in/seam.ts'] },
    ]),
  ),
  ...Object.fromEntries(
    ['/email-otp/send-verification-otp', '/sign-in/email-otp'].map((path) => [
      path,
      { declared: [EMAIL_OTP[0], path] as [string, string], rules: [...EMAIL_OTP, 'features/sign-in/seam.ts'] },
    ]),
  ),
  ...Object.fromEntries(
    ['get-invitation', 'accept-invitation', 'reject-invitation'].map((name) => [
      `/organization/${name}`,
      { declared: [INVITATION[0], `/${name}`] as [string, string], rules: INVITATION },
    ]),
  ),
};

/** What every route goes through: the request checks, the origin check, rate limits, the handler, the bot check. */
const EVERY_ROUTE = ['http', 'infra/validation.ts', 'infra/rate-limit.ts', 'errors/handler.ts', 'features/captcha'];

/**
 * Codes named in those files that only another route of the same file answers, by the reason they never reach
 * the pages. Each must still be named there (checked), so the list cannot go stale.
 */
const NOT_FROM_THE_PAGES: Record<string, string[]> = {
  'change-email, change-password, set-password and update-user: account routes the pages do not call': [
    'CHANGE_EMAIL_DISABLED',
    'COULDNT_UPDATE_EMAIL',
    'EMAIL_IS_THE_SAME',
    'USER_ALREADY_HAS_PASSWORD',
    'CREDENTIAL_ACCOUNT_NOT_FOUND',
    'CALLBACK_URL_REQUIRED',
  ],
  'id-token sign-in, account linking and provider tokens: social routes the pages do not call': [
    'ID_TOKEN_NOT_SUPPORTED',
    'FAILED_TO_GET_USER_INFO',
    'USER_EMAIL_NOT_FOUND',
    'LINKING_NOT_ALLOWED',
    'LINKING_DIFFERENT_EMAILS_NOT_ALLOWED',
    'UNABLE_TO_CREATE_ACCOUNT',
  ],
  'inviting, canceling and listing: organization routes the pages do not call (they read and answer an invitation)': [
    'MEMBER_NOT_FOUND',
    'NOT_A_MEMBER_OF_THIS_ORGANIZATION',
    'INVITATION_LIMIT_REACHED',
    'NOT_ALLOWED_TO_INVITE_USERS',
    'NOT_ALLOWED_TO_INVITE_WITH_ROLE',
    'NOT_ALLOWED_TO_CANCEL_INVITATION',
    'USER_IS_ALREADY_INVITED',
    'NO_ACTIVE_ORGANIZATION',
    'ORGANIZATION_ID_REQUIRED',
  ],
  'service credentials and API keys: the pages send neither (a browser session only)': [
    'SERVER_ONLY',
    'INVALID_API_KEY',
    'KEY_NOT_FOUND',
    'API_KEY_SESSION_NOT_ALLOWED',
  ],
  'redirect parameters the pages never send (they send callbackURL only)': [
    'INVALID_REDIRECT_TO',
    'INVALID_ERROR_CALLBACK_URL',
    'INVALID_NEW_USER_CALLBACK_URL',
  ],
  'send-verification-otp with type change-email: the pages ask only for sign-in codes': ['INVALID_OTP_TYPE'],
  'email-otp/request-email-change: a change of email by code, which the pages do not offer': [
    'CURRENT_EMAIL_OTP_REQUIRED',
  ],
  'a call without a body sent as GET: the client sends each of the pages’ POSTs with a JSON body': [
    'METHOD_NOT_ALLOWED',
  ],
};

const CODES = Object.keys(CATALOGUE);

function filesUnder(relative: string): string[] {
  const full = join(SRC, relative);
  if (!statSync(full).isDirectory()) return [full];
  return (readdirSync(full, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts'))
    .map((f) => join(full, f));
}

/** The catalogue codes a source file names (as a quoted string: `fail('X')`, `new ApiError('X')`, a code map). */
const codesIn = (file: string): string[] => {
  const text = readFileSync(file, 'utf8');
  return CODES.filter((code) => new RegExp(`['"\`]${code}['"\`]`).test(text));
};

/** The API calls in the pages' sources: client methods (`client.twoFactor.enable(`) and `$fetch('/path'`. */
function pageCalls(): { methods: string[]; paths: string[] } {
  const methods = new Set<string>();
  const paths = new Set<string>();
  for (const file of readdirSync(PAGES, { recursive: true }) as string[]) {
    if (!/\.tsx?$/.test(file)) continue;
    const text = readFileSync(join(PAGES, file), 'utf8');
    for (const m of text.matchAll(/\bclient\.([\w.]+)\(/g)) if (m[1] !== '$fetch') methods.add(m[1]);
    for (const m of text.matchAll(/\$fetch\(\s*(['"`])([^'"`]*)\1/g)) paths.add(m[2]);
    // A $fetch whose path is not a plain string would escape this test.
    for (const m of text.matchAll(/\$fetch\(\s*(?!['"])[^)]/g))
      throw new Error(`${file}: $fetch without a literal path: ${m[0]}`);
  }
  return { methods: [...methods].sort(), paths: [...paths].sort() };
}

function reachable(): Set<string> {
  const { methods, paths } = pageCalls();
  const apiPaths = [...paths, ...methods.flatMap((m) => CLIENT_CALLS[m] ?? [])];
  const files = new Set(EVERY_ROUTE.flatMap(filesUnder));
  for (const path of apiPaths) {
    const route = ROUTES[path];
    if (!route) continue;
    files.add(join(SRC, route.declared[0]));
    for (const rule of route.rules) files.add(join(SRC, rule));
  }
  return new Set([...files].flatMap(codesIn));
}

const unreachable = new Set(Object.values(NOT_FROM_THE_PAGES).flat());

describe('the API error codes the pages can receive', () => {
  it('every API call of the pages is known: its client method or path names a route whose rules are listed', () => {
    const { methods, paths } = pageCalls();
    expect(methods.filter((m) => !CLIENT_CALLS[m])).toEqual([]);
    const apiPaths = [...paths, ...methods.flatMap((m) => CLIENT_CALLS[m])];
    expect(apiPaths.filter((p) => !ROUTES[p])).toEqual([]);
    for (const [path, { declared, rules }] of Object.entries(ROUTES)) {
      const [file, local] = declared;
      const text = readFileSync(join(SRC, file), 'utf8');
      expect([path, text.includes(`'${local}'`)]).toEqual([path, true]);
      for (const rule of rules) expect([path, rule, statSync(join(SRC, rule)).isFile()]).toEqual([path, rule, true]);
    }
  });

  it('each reachable code has the pages’ own wording (not the generic fallback)', () => {
    const codes = reachable();
    expect(codes.size).toBeGreaterThan(40);
    const missing = [...codes].filter((code) => !unreachable.has(code) && !(code in API_ERROR_WORDING)).sort();
    expect(missing).toEqual([]);
    for (const code of codes) if (code in API_ERROR_WORDING) expect(apiErrorKey(code)).not.toBe('e_generic');
  });

  it('the codes said to be unreachable are named in the files the pages reach, and worded nowhere', () => {
    const codes = reachable();
    expect([...unreachable].filter((code) => !codes.has(code))).toEqual([]);
    expect([...unreachable].filter((code) => code in API_ERROR_WORDING)).toEqual([]);
    // Besides the API's codes, only the pages' own: a network failure, and a form sent before the bot check's token.
    expect(Object.keys(API_ERROR_WORDING).filter((code) => !(code in CATALOGUE))).toEqual([
      'CAPTCHA_REQUIRED',
      'NETWORK',
    ]);
  });

  it.each(LANGUAGES)('%s words each of them as a sentence of its own, never the API’s message', async (language) => {
    const catalogue = await loadCatalogue(language);
    const problems: string[] = [];
    for (const [code, key] of Object.entries(API_ERROR_WORDING) as [string, MessageKey][]) {
      const text = catalogue[key].trim();
      if (!/[.!?…]$/.test(text)) problems.push(`${code}: no full stop: ${text}`);
      const api = (CATALOGUE as Record<string, { message: string }>)[code]?.message;
      if (api && text === api && !/[.!?]$/.test(api)) problems.push(`${code}: the API's own words: ${text}`);
      if (/\{\w+\}/.test(text)) problems.push(`${code}: a value to fill in, which an error is never given: ${text}`);
    }
    expect(problems).toEqual([]);
  });
});
