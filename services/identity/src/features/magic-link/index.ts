import type { FeatureRoutes } from '../../http/web';
import type { MagicLinkFeatureDeps } from './deps';
import { magicLinkRoutes } from './magic-link.routes';
import { MagicLinkService } from './magic-link.service';
import { MagicLinkRepository } from './repository';

export type { MagicLinkFeatureDeps } from './deps';
export type { MagicLinkService } from './magic-link.service';

/**
 * Sign-in by a mailed one-time link (docs/passwordless.md), as better-auth's magic-link plugin answers it. Its
 * route table:
 *
 *   magic-link.routes   sign-in/magic-link · magic-link/verify
 *
 * A used link ends in the sign-in seam (ban, second factor, session), which spends it in the session's transaction.
 * Its tokens live in the verifications table, whose sweep removes expired ones.
 */
export interface MagicLinkFeature extends FeatureRoutes {
  magicLinks: MagicLinkService;
}

export function createMagicLinkFeature(deps: MagicLinkFeatureDeps): MagicLinkFeature {
  const { config } = deps;
  const magicLinks = new MagicLinkService({
    ...deps,
    repo: new MagicLinkRepository(deps.sql),
    settings: config.magicLink,
  });
  const secure = config.publicUrl.startsWith('https://');
  const browserCookie = `${secure ? '__Secure-' : ''}${config.session.cookiePrefix}.magic_link`;
  return {
    magicLinks,
    async routes(app, web) {
      await app.register(magicLinkRoutes, { ...web, magicLinks, browserCookie });
    },
  };
}
