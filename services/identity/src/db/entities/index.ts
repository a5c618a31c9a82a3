import { Account } from './account.entity';
import { Session } from './session.entity';
import { User } from './user.entity';
import { Verification } from './verification.entity';

export { Account, Session, User, Verification };
export const ENTITIES = [User, Session, Account, Verification];
