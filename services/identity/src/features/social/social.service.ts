import { fail } from '../../errors';
import type { AuditSource } from '../../shared/audit';
import type { SignInContext, SignInResult } from '../../shared/sign-in';
import type { SessionWithUser } from '../../shared/views';
import type { IdentifyService, SignInRefusal } from './identify.service';
import { authorizationUrl, type ProviderTokens } from './oauth-client';
import type { SocialParts } from './parts';
import { mapProfile } from './profile';
import { providerIdentity } from './provider-identity';
import type { Provider } from './providers/registry';
import type { Profile } from './providers/types';
import type { IdTokenInput, StartInput } from './schemas';

const SIGN_IN_ERRORS = {
  email_not_found: 'USER_EMAIL_NOT_FOUND',
  account_not_linked: 'LINKING_NOT_ALLOWED',
  signup_disabled: 'SIGN_UP_DISABLED',
} as const satisfies Record<SignInRefusal, string>;

/** What starting a social sign-in or link uses. */
export type SocialStartDeps = Pick<SocialParts, 'providers' | 'states' | 'verifier' | 'signIn'>;

/** sign-in/social and link-social (spec §7): start a redirect flow, or sign in / link with an id token. */
export class SocialService {
  constructor(
    private readonly d: SocialStartDeps,
    private readonly identify: IdentifyService,
  ) {}

  async provider(id: string): Promise<Provider> {
    const provider = await this.d.providers.get(id).catch(() => null);
    return provider ?? fail('PROVIDER_NOT_FOUND');
  }

  /** A new state for this browser and the provider's authorization URL (the route sets the state cookie). */
  async start(input: StartInput, link: { userId: string; email: string } | null) {
    const p = await this.provider(input.provider);
    const { state, value } = await this.d.states.create({
      providerId: p.id,
      callbackURL: input.callbackURL ?? null,
      errorURL: input.errorCallbackURL ?? null,
      newUserURL: input.newUserCallbackURL ?? null,
      link,
      requestSignUp: input.requestSignUp ?? false,
      wantsNonce: p.supportsIdToken && p.def.scopes.includes('openid'),
    });
    const url = await authorizationUrl(p, {
      state,
      codeVerifier: value.codeVerifier,
      nonce: value.nonce,
      scopes: input.scopes,
      loginHint: input.loginHint,
    });
    return { state, url };
  }

  /** spec §7 id-token sign-in (mobile apps): verify with the provider's keys, then sign in or register. */
  async signInWithIdToken(
    providerId: string,
    input: IdTokenInput,
    context: SignInContext,
    requestSignUp = false,
  ): Promise<SignInResult> {
    const { p, profile, tokens } = await this.verified(providerId, input);
    const found = await this.identify.identify(p, profile, requestSignUp);
    if (found.kind === 'refused') return fail(SIGN_IN_ERRORS[found.reason]);
    if (found.kind !== 'new') await this.d.signIn.checkBan(found.user); // BANNED_USER as JSON here (not a redirect)
    const persisted =
      (await this.identify.persist(p, profile, found, tokens, context.source)) ?? fail('LINKING_NOT_ALLOWED');
    return this.d.signIn.complete(providerIdentity(p, persisted.user), context);
  }

  /** link-social with an id token: linked at once (spec §4 linking rule). */
  async linkWithIdToken(
    auth: SessionWithUser,
    providerId: string,
    input: IdTokenInput,
    source: AuditSource,
  ): Promise<void> {
    const { p, profile, tokens } = await this.verified(providerId, input);
    const link = { userId: auth.user.id, email: auth.user.email };
    const refusal = await this.identify.link(p, profile, link, tokens, source);
    if (refusal === 'linking_not_allowed') fail('LINKING_NOT_ALLOWED');
    if (refusal === 'different_emails') fail('LINKING_DIFFERENT_EMAILS_NOT_ALLOWED');
    if (refusal === 'already_linked_to_other_user') fail('UNABLE_TO_CREATE_ACCOUNT');
  }

  private async verified(providerId: string, input: IdTokenInput) {
    const p = await this.provider(providerId);
    if (!p.supportsIdToken) fail('ID_TOKEN_NOT_SUPPORTED');
    const claims = await this.d.verifier.verify(p, input.token, input.nonce);
    if (!claims) return fail('INVALID_TOKEN', undefined, 401); // better-auth: an id token refused is UNAUTHORIZED
    const profile: Profile | null = mapProfile(p.def, { userInfo: null, claims, extra: {} });
    if (!profile) return fail('FAILED_TO_GET_USER_INFO');
    const tokens: Partial<ProviderTokens> = {
      idToken: input.token,
      accessToken: input.accessToken ?? null,
      refreshToken: input.refreshToken ?? null,
      accessTokenExpiresAt: input.expiresAt ? new Date(input.expiresAt) : null,
    };
    return { p, profile, tokens };
  }
}
