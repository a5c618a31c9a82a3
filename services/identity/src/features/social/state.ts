import { randomString } from '../../crypto/random';
import type { KeyValueStore } from '../../store';

/** spec §3 OAuth state value: what the callback needs, kept 10 minutes (spec §9) under the state. */
export interface OAuthState {
  providerId: string;
  codeVerifier: string;
  nonce: string | null;
  callbackURL: string | null;
  errorURL: string | null;
  newUserURL: string | null;
  /** link-social: the signed-in user the provider account is linked to. */
  link: { email: string; userId: string } | null;
  requestSignUp: boolean;
  expiresAt: string;
}

export type NewState = Omit<OAuthState, 'codeVerifier' | 'expiresAt' | 'nonce'> & { wantsNonce: boolean };

const STATE = /^[A-Za-z0-9]{32}$/;
const key = (providerId: string, state: string) => `oauth-state:${providerId}:${state}`;

/**
 * States in Redis (or the in-process store): 32-character state, 128-character PKCE verifier (spec §9). The key
 * names the provider, so a state started for one provider is unknown to another's callback. `take` reads and
 * deletes in one atomic step (GETDEL): of two callbacks racing with one state, only one gets it.
 */
export class OAuthStates {
  constructor(
    private readonly store: KeyValueStore,
    private readonly ttlSec: number,
    private readonly now: () => number,
  ) {}

  async create(input: NewState): Promise<{ state: string; value: OAuthState }> {
    const state = randomString(32);
    const { wantsNonce, ...rest } = input;
    const value: OAuthState = {
      ...rest,
      codeVerifier: randomString(128),
      nonce: wantsNonce ? randomString(32) : null,
      expiresAt: new Date(this.now() + this.ttlSec * 1000).toISOString(),
    };
    await this.store.set(key(input.providerId, state), JSON.stringify(value), this.ttlSec);
    return { state, value };
  }

  /** The state's value, deleted as it is read; null when unknown, used, expired or malformed. */
  async take(providerId: string, state: string): Promise<OAuthState | null> {
    if (!STATE.test(state)) return null;
    const raw = await this.store.take(key(providerId, state));
    if (!raw) return null;
    const value = JSON.parse(raw) as OAuthState;
    return Date.parse(value.expiresAt) > this.now() ? value : null;
  }
}
