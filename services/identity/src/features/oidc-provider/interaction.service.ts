import type { IncomingMessage, ServerResponse } from 'node:http';
import { errors, type InteractionResults, type KoaContextWithOIDC } from 'oidc-provider';
import { ApiError } from '../../errors';
import type { UserView } from '../../shared/views';
import type { ClientSource } from './clients';
import type { ProviderHost } from './host';
import type { ConsentView } from './schemas';
import { StorageUnavailable } from './unavailable';

type Provider = Awaited<ReturnType<ProviderHost['current']>>['provider'];
type Grant = InstanceType<Provider['Grant']>;
type Interaction = InstanceType<Provider['Interaction']>;

/** Where the browser is sent for what the provider cannot do itself: the hosted pages. */
export interface InteractionPages {
  /** The hosted sign-in page, coming back to `callbackURL`. */
  signIn(callbackURL: string): string;
  /** The hosted consent page for the interaction `uid`. */
  consent(uid: string): string;
  /** The absolute URL of the interaction's browser step (the sign-in page's callbackURL). */
  continueUrl(uid: string): string;
}

/** A signed-in user and when their session began (epoch seconds). */
export interface SignedIn {
  user: UserView;
  since: number;
}

const epoch = () => Math.floor(Date.now() / 1000);

/**
 * The provider's interactions, done with the service's own sign-in (docs/oidc-provider.md, "Sign-in and consent"):
 *
 * - login: the browser's service session is the sign-in. The provider asks only when there is none, or when the
 *   request needs a newer one (`prompt=login`, `max_age` passed, a hint naming someone else): without a session
 *   the browser goes to the hosted sign-in page and comes back here; a session older than the request cannot be
 *   renewed here, so the request ends with `login_required` (OpenID Connect Core 3.1.2.1).
 * - consent: a first-party client's grant covers what it asks for without a question (here, and before the
 *   provider asks at all: `loadExistingGrant`); another client's user answers on the hosted consent page, which
 *   reads `details` and posts `consent`.
 *
 * The browser step is bound to its browser by the provider's interaction cookie; the consent API to the user the
 * interaction is for (their session) and, in the end, to the browser that holds the resume cookie.
 */
export class InteractionService {
  constructor(
    private readonly host: ProviderHost,
    private readonly clients: ClientSource,
    private readonly pages: InteractionPages,
  ) {}

  /** The browser step (`GET /interaction/:uid/continue`): where the browser goes next. */
  continue(uid: string, signedIn: SignedIn | null, req: IncomingMessage, res: ServerResponse): Promise<string> {
    return available(() => this.next(uid, signedIn, req, res));
  }

  /** What the hosted consent page shows: the client and what it asks for (`GET /interaction/:uid`). */
  details(uid: string, user: UserView): Promise<ConsentView> {
    return available(() => this.view(uid, user));
  }

  /** The user's answer (`POST /interaction/:uid/consent`): where the browser goes to finish the request. */
  consent(uid: string, user: UserView, approve: boolean): Promise<string> {
    return available(() => this.answer(uid, user, approve));
  }

  private async next(uid: string, signedIn: SignedIn | null, req: IncomingMessage, res: ServerResponse) {
    const { provider } = await this.host.current();
    // No interaction cookie, or its interaction gone: not found; any other failure (a store away) goes on up.
    const interaction = await provider.interactionDetails(req, res).catch((error: unknown) => {
      if (error instanceof errors.SessionNotFound) return null;
      throw error;
    });
    if (!interaction || interaction.uid !== uid) throw new ApiError('INTERACTION_NOT_FOUND');
    const finish = (result: InteractionResults, merge = false) =>
      provider.interactionResult(req, res, result, { mergeWithLastSubmission: merge });
    const { prompt } = interaction;
    if (prompt.name === 'login') {
      const onlyNoSession = prompt.reasons.every((reason) => reason === 'no_session');
      if (!signedIn) return this.pages.signIn(this.pages.continueUrl(uid));
      if (!onlyNoSession && signedIn.since < interaction.iat)
        return finish({
          error: 'login_required',
          error_description: 'the request needs a sign-in newer than the session of this browser',
        });
      return finish({ login: { accountId: signedIn.user.id, ts: signedIn.since } });
    }
    if (prompt.name === 'consent') {
      if (!signedIn || signedIn.user.id !== interaction.session?.accountId)
        return finish({ error: 'login_required', error_description: 'the signed-in user changed' });
      const client = await this.clients.find(String(interaction.params.client_id));
      if (!client) throw new ApiError('INTERACTION_NOT_FOUND');
      if (!client.firstParty) return this.pages.consent(uid);
      const grantId = await this.grantMissing(provider, interaction, signedIn.user.id);
      return finish({ consent: { grantId } }, true);
    }
    return finish({ error: 'interaction_required', error_description: `unsupported prompt ${prompt.name}` });
  }

  private async view(uid: string, user: UserView): Promise<ConsentView> {
    const { interaction } = await this.consentOf(uid, user);
    const client = await this.clients.find(String(interaction.params.client_id));
    if (!client) throw new ApiError('INTERACTION_NOT_FOUND');
    const details = interaction.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    const requested = String(interaction.params.scope ?? '')
      .split(' ')
      .filter(Boolean);
    return {
      uid,
      client: { clientId: client.clientId, name: client.name, logoUri: client.logoUri },
      scopes: details.missingOIDCScope ?? requested,
      claims: details.missingOIDCClaims ?? [],
    };
  }

  private async answer(uid: string, user: UserView, approve: boolean): Promise<string> {
    const { provider, interaction } = await this.consentOf(uid, user);
    let result: InteractionResults;
    if (approve) {
      const grantId = await this.grantMissing(provider, interaction, user.id);
      result = { ...interaction.lastSubmission, consent: { grantId } };
    } else result = { error: 'access_denied', error_description: 'the user did not allow the request' };
    interaction.result = result;
    await interaction.save(interaction.exp - epoch());
    return interaction.returnTo;
  }

  /**
   * The grant the provider starts from (its `loadExistingGrant`): the browser session's grant for the client,
   * and for a first-party client one that covers every scope and claim asked for, made or extended here.
   */
  async loadExistingGrant(ctx: KoaContextWithOIDC): Promise<Grant | undefined> {
    const { oidc } = ctx;
    const provider = oidc.provider;
    const clientId = oidc.client!.clientId;
    const grantId = oidc.result?.consent?.grantId ?? oidc.session!.grantIdFor(clientId);
    let grant = grantId ? await provider.Grant.find(grantId) : undefined;
    const client = await this.clients.find(clientId);
    const accountId = oidc.session!.accountId!;
    if (!client?.firstParty) return grant;
    if (grant && (grant.accountId !== accountId || grant.clientId !== clientId)) grant = undefined;
    const fresh = !grant;
    grant ??= new provider.Grant({ accountId, clientId });
    const scopes = [...oidc.requestParamOIDCScopes];
    const claims = [...oidc.requestParamClaims];
    const known = new Set(grant.getOIDCScope().split(' '));
    const knownClaims = new Set(grant.getOIDCClaims());
    if (fresh || scopes.some((s) => !known.has(s)) || claims.some((c) => !knownClaims.has(c))) {
      if (scopes.length) grant.addOIDCScope(scopes);
      if (claims.length) grant.addOIDCClaims(claims);
      await grant.save();
    }
    return grant;
  }

  /** The interaction `uid` waiting for `user`'s consent, else INTERACTION_NOT_FOUND. */
  private async consentOf(uid: string, user: UserView): Promise<{ provider: Provider; interaction: Interaction }> {
    const { provider } = await this.host.current();
    const interaction = await provider.Interaction.find(uid);
    if (interaction?.prompt.name !== 'consent' || interaction.session?.accountId !== user.id)
      throw new ApiError('INTERACTION_NOT_FOUND');
    return { provider, interaction };
  }

  /** The interaction's grant with what the provider found missing added; saved, its id answered. */
  private async grantMissing(provider: Provider, interaction: Interaction, accountId: string): Promise<string> {
    const clientId = String(interaction.params.client_id);
    const existing = interaction.grantId ? await provider.Grant.find(interaction.grantId) : undefined;
    const grant =
      existing && existing.accountId === accountId && existing.clientId === clientId
        ? existing
        : new provider.Grant({ accountId, clientId });
    const details = interaction.prompt.details as {
      missingOIDCScope?: string[];
      missingOIDCClaims?: string[];
      missingResourceScopes?: Record<string, string[]>;
    };
    if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope);
    if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
    for (const [resource, scopes] of Object.entries(details.missingResourceScopes ?? {}))
      grant.addResourceScope(resource, scopes);
    return grant.save();
  }
}

/** `work`, with the stores' unavailability as the service's own 503 SERVICE_UNAVAILABLE. */
async function available<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (error instanceof StorageUnavailable) throw new ApiError('SERVICE_UNAVAILABLE');
    throw error;
  }
}
