import type { Config } from '../../config';
import type { AccountService } from '../account';
import type { AdminServices } from './web';

/** What the admin commands use. */
export interface AdminCommandParts {
  admin: AdminServices | null;
  accounts: Pick<AccountService, 'getUserByEmail'>;
  config: Config;
}

import { ApiError } from '../../errors';
import type { UserView } from '../../shared/views';

/** Operations commands: run with the database credentials, so they need no session. */
export const ADMIN_USAGE = `  create-admin --email E --name N [--password-stdin | --password P]
                     create the first admin (role: the first configured admin role). The password is asked for
                     twice without echo on a terminal, or read from standard input (--password-stdin, or no
                     --password): --password P works too, but lands in the shell's history and npm's echo
  set-role --email E --role R                      set a role (comma-separated for several)
  list-users [--search TEXT] [--limit N]           list users (email or name contains TEXT)
  ban --email E [--reason R] [--expires-in-sec S]  ban a user and end their sessions
  unban --email E                                  lift a ban`;

export const ADMIN_COMMANDS = ['create-admin', 'set-role', 'list-users', 'ban', 'unban'];

/** Flags of the admin commands that take no value. */
export const ADMIN_SWITCHES = ['password-stdin'];

export class UsageError extends Error {}

/** `--name value` pairs, and `switches` alone (read as 'true'); any other flag without a value is an error. */
export function parseFlags(args: string[], switches: readonly string[] = []): Record<string, string> {
  const flags: Record<string, string> = {};
  for (let i = 0; i < args.length; i += 2) {
    const key = args[i];
    if (key?.startsWith('--') && switches.includes(key.slice(2))) {
      flags[key.slice(2)] = 'true';
      i--;
      continue;
    }
    const value = args[i + 1];
    if (!key?.startsWith('--') || value === undefined) throw new UsageError(`expected --flag value, got "${key}"`);
    flags[key.slice(2)] = value;
  }
  return flags;
}

const need = (flags: Record<string, string>, name: string): string => {
  if (!flags[name]) throw new UsageError(`--${name} is required`);
  return flags[name];
};

const line = (u: UserView) =>
  [
    u.id,
    u.email,
    JSON.stringify(u.name),
    u.role,
    u.banned ? `banned${u.banExpires ? ` until ${u.banExpires}` : ''}` : '',
  ]
    .join('  ')
    .trim();

/** `flags` from parseFlags, read before connecting so a usage error never starts a database. */
export async function runAdminCommand(
  ctx: AdminCommandParts,
  command: string,
  flags: Record<string, string>,
): Promise<string> {
  const admin = ctx.admin;
  if (!admin) throw new UsageError('the admin feature is off (FEATURE_ADMIN=false)');
  const byEmail = async () => {
    const user = await ctx.accounts.getUserByEmail(need(flags, 'email'));
    if (!user) throw new UsageError(`no user with email ${flags.email}`);
    return user;
  };
  switch (command) {
    case 'create-admin': {
      const input = { email: need(flags, 'email'), password: need(flags, 'password'), name: need(flags, 'name') };
      const user = await admin.users.create(null, { ...input, role: ctx.config.admin.adminRoles[0] });
      return `created ${line(user)}`;
    }
    case 'set-role':
      return `updated ${line(await admin.users.setRole(null, (await byEmail()).id, need(flags, 'role')))}`;
    case 'list-users': {
      const search = flags.search ? { searchValue: flags.search, searchField: 'any' } : {};
      const { users, total } = await admin.users.list(null, { ...search, limit: flags.limit });
      return [...users.map(line), `${users.length} shown, ${total} in total`].join('\n');
    }
    case 'ban': {
      const expires = flags['expires-in-sec'];
      if (expires !== undefined && !/^[1-9]\d*$/.test(expires)) throw new UsageError('--expires-in-sec: seconds > 0');
      const input = {
        userId: (await byEmail()).id,
        banReason: flags.reason,
        banExpiresIn: expires ? Number(expires) : undefined,
      };
      return `banned ${line(await admin.bans.ban(null, input))}`;
    }
    case 'unban':
      return `unbanned ${line(await admin.bans.unban(null, (await byEmail()).id))}`;
    default:
      throw new UsageError(`unknown command ${command}`);
  }
}

/** A refusal from a service, as the operator should read it. */
export const describeError = (error: unknown): string | null =>
  error instanceof UsageError ? error.message : error instanceof ApiError ? `${error.code}: ${error.message}` : null;
