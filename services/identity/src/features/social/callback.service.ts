import type { Config } from '../../config';
import { safeEqual } from '../../crypto/safe-equal';
import { ApiError } from '../../errors';
import { redirectTarget } from '../../http/redirects';
import { type AuditSource, asUser } from '../../shared/audit';
import type { SignInContext, SignInResult } from '../../shared/sign-in';
import type { IdentifyService } from './identify.service';
import { exchangeCode, fetchProfile, type ProviderTokens } from './oauth-client';
import type { SocialParts } from './parts';
import { providerIdentity } from './provider-identity';
import type { Provider } from './providers/registry';
import type { Profile } from './providers/types';
import type { OAuthState } from './state';

/** A callback failure: the spec §8 redirect code, sent to errorURL (or the error page). */
class Redirect extends Error {
  constructor(readonly code: string) {
    super(code);
  }
}

export interface CallbackResult {
  location: string;
  /** Set when the callback ended in the sign-in seam: the route applies its cookies (a session, or a pending sign-in). */
  signIn?: SignInResult;
}

/** Where the callback sends the browser when it fails before it knows the flow's errorURL. */
export const errorPage = (config: Config, code: string) => `${config.publicUrl}${config.basePath}/error?error=${code}`;

/** What the provider callback uses. */
export type CallbackDeps = Pick<SocialParts, 'providers' | 'states' | 'signIn' | 'config' | 'clock'>;

/**
 * GET/POST /callback/:providerId (spec §4, §7): short named steps; each failure redirects with its code.
 */
export class CallbackService {
  constructor(
    private readonly d: CallbackDeps,
    private readonly identify: IdentifyService,
  ) {}

  async handle(
    providerId: string,
    params: Record<string, string>,
    boundState: string | null,
    context: SignInContext,
  ): Promise<CallbackResult> {
    const { source } = context;
    let state: OAuthState | null = null;
    try {
      const provider = await this.findProvider(providerId);
      state = await this.takeState(providerId, params.state, boundState);
      this.assertNoProviderError(params);
      if (!params.code) throw new Redirect('no_code');
      if (!state.callbackURL) throw new Redirect('no_callback_url');
      const tokens = await this.exchange(provider, params, state);
      const profile = await this.profile(provider, tokens, params.user);
      if (state.link) return await this.finishLink(provider, profile, state, tokens, asUser(source, state.link.userId));
      return await this.signIn(provider, profile, state, tokens, context);
    } catch (error) {
      if (error instanceof ApiError && error.code === 'BANNED_USER')
        return { location: errorPage(this.d.config, 'banned') };
      const code = error instanceof Redirect ? error.code : 'internal_server_error';
      return {
        location: state?.errorURL ? redirectTarget(state.errorURL, { error: code }) : errorPage(this.d.config, code),
      };
    }
  }

  private async findProvider(providerId: string): Promise<Provider> {
    const provider = await this.d.providers.get(providerId).catch(() => null);
    if (!provider) throw new Redirect('oauth_provider_not_found');
    return provider;
  }

  /**
   * The state must come back to the browser that started the flow (its signed state cookie holds the same
   * value), then it is taken: found and deleted in one atomic step, so it works once.
   */
  private async takeState(providerId: string, state: string | undefined, bound: string | null): Promise<OAuthState> {
    if (!state) throw new Redirect('state_not_found');
    if (!bound || !safeEqual(bound, state)) throw new Redirect('please_restart_the_process');
    const value = await this.d.states.take(providerId, state);
    if (!value) throw new Redirect('state_not_found');
    return value;
  }

  /** The provider said no (the user refused, …): its own error code, as better-auth forwards it. */
  private assertNoProviderError(params: Record<string, string>): void {
    if (params.error)
      throw new Redirect(/^[a-z_]{1,64}$/.test(params.error) ? params.error : 'invalid_callback_request');
  }

  private async exchange(p: Provider, params: Record<string, string>, state: OAuthState): Promise<ProviderTokens> {
    try {
      return await exchangeCode(
        p,
        params,
        { state: params.state, codeVerifier: state.codeVerifier, nonce: state.nonce },
        this.d.clock.now(),
      );
    } catch {
      throw new Redirect('invalid_code');
    }
  }

  private async profile(p: Provider, tokens: ProviderTokens, user: string | undefined): Promise<Profile> {
    let callbackUser: unknown;
    try {
      callbackUser = user ? JSON.parse(user) : undefined; // Apple: {"name": {...}} on the first sign-in only
    } catch {}
    const fetched = await fetchProfile(p, tokens.accessToken, tokens.claims, callbackUser).catch(() => null);
    if (!fetched?.profile) throw new Redirect('unable_to_get_user_info');
    return fetched.profile;
  }

  private async finishLink(
    p: Provider,
    profile: Profile,
    state: OAuthState,
    tokens: ProviderTokens,
    source: AuditSource,
  ): Promise<CallbackResult> {
    const refusal = await this.identify.link(p, profile, state.link!, tokens, source);
    if (refusal === 'already_linked_to_other_user') throw new Redirect('account_already_linked_to_different_user');
    if (refusal) throw new Redirect('unable_to_link_account');
    return { location: redirectTarget(state.callbackURL!) };
  }

  private async signIn(
    p: Provider,
    profile: Profile,
    state: OAuthState,
    tokens: ProviderTokens,
    context: SignInContext,
  ): Promise<CallbackResult> {
    const found = await this.identify.identify(p, profile, state.requestSignUp);
    if (found.kind === 'refused') throw new Redirect(found.reason);
    // spec §8: a banned user is sent to the error page (handle), before anything of theirs is linked or stored
    if (found.kind !== 'new') await this.d.signIn.checkBan(found.user);
    const persisted = await this.identify.persist(p, profile, found, tokens, context.source);
    if (!persisted) throw new Redirect('account_not_linked'); // a concurrent sign-up took the email first
    const target = persisted.isNew && state.newUserURL ? state.newUserURL : state.callbackURL!;
    const signIn = await this.d.signIn.complete(providerIdentity(p, persisted.user), context);
    // A second factor: back to the product's page with twoFactorRedirect=true, which asks for the code
    const pending = signIn.kind === 'second-factor' ? { twoFactorRedirect: 'true' } : undefined;
    return { location: redirectTarget(target, pending), signIn };
  }
}
