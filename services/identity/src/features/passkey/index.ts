import { relyingParty } from '../../config';
import type { FeatureRoutes } from '../../http/web';
import type { ResettableFactor } from '../two-factor';
import type { PasskeyFeatureDeps } from './deps';
import { passkeyRoutes } from './passkey.routes';
import { PasskeyService } from './passkey.service';
import { PasskeyRepository } from './repository';

export type { OrganizationPolicy, PasskeyFeatureDeps, UserLookup } from './deps';
export type { PasskeyService } from './passkey.service';
export type { PasskeyView } from './schemas';

/**
 * Passkeys (docs/two-factor.md "Passkeys"): WebAuthn registration and sign-in, as better-auth's passkey plugin
 * answers them. Its route table:
 *
 *   passkey.routes   passkey/generate-register-options · verify-registration · generate-authenticate-options ·
 *                    verify-authentication · list-user-passkeys · update-passkey · delete-passkey
 *
 * An operator's reset of the second factor removes passkeys too (`resettable`, given to the two-factor feature). The second-factor
 * policies count a passkey through the user's `passkeyCount` (shared/second-factor.ts).
 */
export interface PasskeyFeature extends FeatureRoutes {
  passkeys: PasskeyService;
  /** An operator's reset of the second factor removes passkeys too: the two-factor feature is given this. */
  resettable: ResettableFactor;
  /** Deletes expired challenges; answers how many. */
  sweepExpired(batch?: number): Promise<number>;
}

export function createPasskeyFeature(deps: PasskeyFeatureDeps): PasskeyFeature {
  const { config } = deps;
  const passkeys = new PasskeyService({
    sql: deps.sql,
    repo: new PasskeyRepository(deps.sql),
    accounts: deps.accounts,
    sessions: deps.sessions,
    organizations: deps.organizations,
    mail: deps.mail,
    config: config.passkey,
    rp: relyingParty(config),
    requireEmailVerification: config.emailAndPassword.requireEmailVerification,
    accountUrl: config.twoFactor.accountUrl ?? config.publicUrl,
    clock: deps.clock,
    audit: deps.audit,
  });
  return {
    passkeys,
    resettable: { name: 'passkeys', removeAll: (userId, tx) => passkeys.removeAll(userId, tx) },
    sweepExpired: (batch = 1000) => passkeys.sweepExpired(batch),
    async routes(app, web) {
      await app.register(passkeyRoutes, { ...web, passkeys });
    },
  };
}
