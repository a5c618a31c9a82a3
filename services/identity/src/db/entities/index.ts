import { Account } from './account.entity';
import { ApiKey } from './api-key.entity';
import { Invitation } from './invitation.entity';
import { Jwk } from './jwks.entity';
import { Member } from './member.entity';
import { Organization } from './organization.entity';
import { OutboxMessage } from './outbox.entity';
import { Session } from './session.entity';
import { Team } from './team.entity';
import { TeamMember } from './team-member.entity';
import { User } from './user.entity';
import { UserCount } from './user-count.entity';
import { SearchWord, UserWord } from './user-word.entity';
import { Verification } from './verification.entity';

export {
  Account,
  ApiKey,
  Invitation,
  Jwk,
  Member,
  Organization,
  OutboxMessage,
  SearchWord,
  Session,
  Team,
  TeamMember,
  User,
  UserCount,
  UserWord,
  Verification,
};
export const ENTITIES = [
  User,
  Session,
  Account,
  Verification,
  Organization,
  Member,
  Team,
  TeamMember,
  Invitation,
  UserCount,
  UserWord,
  SearchWord,
  ApiKey,
  Jwk,
  OutboxMessage,
];
