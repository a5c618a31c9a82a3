import type { Account } from 'oidc-provider';
import { LANGUAGE_TAGS } from '../../mail/jobs';
import { banInForce } from '../../shared/ban';
import type { Clock } from '../../shared/clock';
import type { UserView } from '../../shared/views';
import { fromDatabase, mapped } from './unavailable';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The provider's accounts are the service's users (docs/oidc-provider.md, "Claims"): `sub` is the user id; the
 * claims are the address and whether it is verified, the name, the picture and the locale (the user's language as
 * a language tag). A user who is gone, or whose ban is in force (shared/ban.ts, the one rule), is no account: no
 * token is issued or refreshed for them, and userinfo answers `invalid_token`.
 */
export function accountFinder(
  getUser: (id: string) => Promise<UserView | null>,
  clock: Clock,
): (id: string) => Promise<Account | undefined> {
  return async (id) => {
    if (!UUID.test(id)) return undefined;
    const user = await mapped(() => getUser(id), fromDatabase);
    if (!user || banInForce(user, clock.now())) return undefined;
    return {
      accountId: user.id,
      claims: () => ({
        sub: user.id,
        email: user.email,
        email_verified: user.emailVerified,
        name: user.name,
        ...(user.image ? { picture: user.image } : {}),
        ...(user.language && Object.hasOwn(LANGUAGE_TAGS, user.language)
          ? { locale: LANGUAGE_TAGS[user.language as keyof typeof LANGUAGE_TAGS] }
          : {}),
      }),
    };
  };
}
