import { Initial1795262258691 } from './1795262258691-initial';
import { UserLanguage1795265570400 } from './1795265570400-user-language';
import { Organizations1795300000000 } from './1795300000000-organizations';
import { AdminUserIndexes1795300000100 } from './1795300000100-admin-user-indexes';
import { UserCounts1795300000200 } from './1795300000200-user-counts';
import { ApiKeys1795400000100 } from './1795400000100-api-keys';
import { Jwks1795400000200 } from './1795400000200-jwks';
import { UserNameLower1795500000100 } from './1795500000100-user-name-lower';
import { UserChanges1795600000100 } from './1795600000100-user-changes';
import { UserWords1795600000200 } from './1795600000200-user-words';
import { WordCounts1795700000100 } from './1795700000100-word-counts';
import { MemberTeam1795800000410 } from './1795800000410-member-team';
import { OrganizationSlugs1795800000420 } from './1795800000420-organization-slugs';
import { Outbox1795900000100 } from './1795900000100-outbox';
import { InvitationAcceptedBy1795900000270 } from './1795900000270-invitation-accepted-by';
import { UsersBannedIndex1795900000275 } from './1795900000275-users-banned-index';
import { AuditEvents1796000000100 } from './1796000000100-audit-events';
import { UserSearchFold1796100000100 } from './1796100000100-user-search-fold';
import { Webhooks1796100000200 } from './1796100000200-webhooks';
import { TwoFactor1796100000300 } from './1796100000300-two-factor';
import { OrganizationTwoFactor1796100000400 } from './1796100000400-organization-two-factor';
import { Passkeys1796100000500 } from './1796100000500-passkeys';
import { DropTypeormMetadata1796200000100 } from './1796200000100-drop-typeorm-metadata';
import { PendingSignInMethod1796300000100 } from './1796300000100-pending-sign-in-method';
import { SessionSignInMethod1796400000100 } from './1796400000100-session-sign-in-method';
import { OidcProvider1796500000100 } from './1796500000100-oidc-provider';
import { OauthClients1796500000200 } from './1796500000200-oauth-clients';

/** Listed explicitly (a glob would also match the compiled .d.ts files). Append new ones in order. */
export const MIGRATIONS = [
  Initial1795262258691,
  UserLanguage1795265570400,
  Organizations1795300000000,
  AdminUserIndexes1795300000100,
  UserCounts1795300000200,
  ApiKeys1795400000100,
  Jwks1795400000200,
  UserNameLower1795500000100,
  UserChanges1795600000100,
  UserWords1795600000200,
  WordCounts1795700000100,
  MemberTeam1795800000410,
  OrganizationSlugs1795800000420,
  Outbox1795900000100,
  InvitationAcceptedBy1795900000270,
  UsersBannedIndex1795900000275,
  AuditEvents1796000000100,
  UserSearchFold1796100000100,
  Webhooks1796100000200,
  TwoFactor1796100000300,
  OrganizationTwoFactor1796100000400,
  Passkeys1796100000500,
  DropTypeormMetadata1796200000100,
  PendingSignInMethod1796300000100,
  SessionSignInMethod1796400000100,
  OidcProvider1796500000100,
  OauthClients1796500000200,
];
