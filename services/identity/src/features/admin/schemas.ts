import { type Static, Type } from 'typebox';
import { LanguageField } from '../../mail/language';
import {
  DateTime,
  EmailField,
  errorResponses,
  ImageField,
  ListedSessionSchema,
  NameField,
  Nullable,
  PasswordField,
  RedirectField,
  SessionWithUserSchema,
  StatusSchema,
  SuccessSchema,
  strict,
  UserSchema,
} from '../../shared/schemas';
import { OrganizationSummarySchema } from '../organization';

/** better-auth admin plugin names and shapes (its admin client works unchanged), spec §7. */
const tags = ['admin'];
const UserId = Type.String({ minLength: 1, maxLength: 64, description: 'The user id' });
const RoleField = Type.Union(
  [Type.String({ minLength: 1, maxLength: 256 }), Type.Array(Type.String(), { maxItems: 16 })],
  {
    description: 'A role, a comma-separated list of roles, or a list of roles (configured role names only)',
  },
);
/** What `data` may set (spec §3): never id, email, role, ban fields or emailVerified. */
export const UserData = Type.Object(
  {
    name: Type.Optional(NameField),
    image: Type.Optional(Nullable(ImageField)),
    language: Type.Optional(LanguageField),
  },
  strict,
);
const UserAnswer = Type.Object({ user: UserSchema }, { $id: 'UserResult', title: 'UserResult' });
const user = { 200: UserAnswer, ...errorResponses };
const byUserId = Type.Object({ userId: UserId }, strict);

export const CreateUser = {
  tags,
  summary: 'Create a user with a password (role optional; data may set name, image, language only)',
  body: Type.Object(
    {
      email: EmailField,
      password: PasswordField,
      name: NameField,
      role: Type.Optional(RoleField),
      data: Type.Optional(UserData),
    },
    strict,
  ),
  response: user,
};

export const SetRole = {
  tags,
  summary: "Set a user's role; applies at once",
  body: Type.Object({ userId: UserId, role: RoleField }, strict),
  response: user,
};

export const GetUser = {
  tags,
  summary: 'One user by id',
  querystring: Type.Object({ id: UserId }, strict),
  response: { 200: UserSchema, ...errorResponses },
};

export const UpdateUser = {
  tags,
  summary: "Update a user's name, image, language or role",
  body: Type.Object(
    { userId: UserId, data: Type.Object({ ...UserData.properties, role: Type.Optional(RoleField) }, strict) },
    strict,
  ),
  response: { 200: UserSchema, ...errorResponses },
};

const Text = Type.String({ maxLength: 256 });
const Count = Type.Union([Type.Integer({ minimum: 0 }), Type.String({ maxLength: 12 })]);
export const ListUsers = {
  tags,
  summary: 'Users, searched, filtered, sorted and paged; an empty list with total 0 on a bad query (spec §7)',
  description:
    'searchField email|name, searchOperator contains|starts_with|ends_with (case-insensitive; names also ' +
    'accent-insensitive: muller finds Müller); searchField any (an extension) matches the email or the name. ' +
    'filterField id|email|name|role|banned|emailVerified|createdAt|updatedAt|banExpires with filterOperator ' +
    'eq|ne|lt|lte|gt|gte|contains; sortBy one of the filter fields, sortDirection asc|desc (default createdAt desc); ' +
    'limit (default 100, at most 1000) and offset as numbers or numeric text. ' +
    'Extension filters role, banned and emailVerified (each an equality) apply together and with filterField (AND); ' +
    'a field filtered by filterField too is refused with USER_FILTERED_TWICE, a bad value with VALIDATION_ERROR.',
  querystring: Type.Object(
    {
      searchValue: Type.Optional(Text),
      searchField: Type.Optional(Text),
      searchOperator: Type.Optional(Text),
      limit: Type.Optional(Count),
      offset: Type.Optional(Count),
      sortBy: Type.Optional(Text),
      sortDirection: Type.Optional(Text),
      filterField: Type.Optional(Text),
      filterValue: Type.Optional(Type.Union([Text, Type.Number(), Type.Boolean()])),
      filterOperator: Type.Optional(Text),
      role: Type.Optional(
        Type.String({ minLength: 1, maxLength: 256, description: 'Users whose role text is exactly this.' }),
      ),
      banned: Type.Optional(
        Type.Boolean({
          description: 'Users with (true) or without (false) a ban in force; a lapsed ban counts as none.',
        }),
      ),
      emailVerified: Type.Optional(Type.Boolean({ description: 'Users whose email is (true) or is not verified.' })),
    },
    strict,
  ),
  response: {
    200: Type.Object({
      users: Type.Array(UserSchema),
      total: Type.Integer(),
      limit: Type.Optional(Type.Integer()),
      offset: Type.Optional(Type.Integer()),
    }),
    ...errorResponses,
  },
};

export const ListUserSessions = {
  tags,
  summary: "A user's active sessions, impersonation sessions included, each with how it was made",
  description:
    'hideTokens=true answers each session with an empty token: for consoles, which revoke by session id and so ' +
    "never need to hold another user's token. Each session also says how it was made (signInMethod, " +
    'secondFactor; null for a session made before they were recorded).',
  body: Type.Object({ userId: UserId, hideTokens: Type.Optional(Type.Boolean()) }, strict),
  response: { 200: Type.Object({ sessions: Type.Array(ListedSessionSchema) }), ...errorResponses },
};

export const BanUser = {
  tags,
  summary: 'Ban a user and end all their sessions (reason default "No reason"; banExpiresIn in seconds)',
  body: Type.Object(
    {
      userId: UserId,
      banReason: Type.Optional(Type.String({ maxLength: 1024 })),
      banExpiresIn: Type.Optional(Type.Integer({ minimum: 1, maximum: 100 * 365 * 86400 })),
    },
    strict,
  ),
  response: user,
};

export const UnbanUser = { tags, summary: 'Lift a ban', body: byUserId, response: user };

const SessionAndUser = { 200: SessionWithUserSchema, ...errorResponses };
export const ImpersonateUser = {
  tags,
  summary: 'Sign in as the user for a fixed time; the admin session is kept in the admin_session cookie',
  body: byUserId,
  response: SessionAndUser,
};

export const StopImpersonating = {
  tags,
  summary: 'End the impersonation session and restore the admin session',
  response: SessionAndUser,
};

export const RevokeUserSession = {
  tags,
  summary: 'Revoke one session by its token, or by its id',
  description:
    'Exactly one of sessionToken (better-auth) and sessionId (the id list-user-sessions answers). An unknown ' +
    'session answers success as well: there is nothing left to revoke.',
  body: Type.Object(
    {
      sessionToken: Type.Optional(Type.String({ minLength: 1, maxLength: 512 })),
      sessionId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    },
    strict,
  ),
  response: { 200: SuccessSchema, ...errorResponses },
};

export const RevokeUserSessions = {
  tags,
  summary: 'Revoke every session of a user',
  body: byUserId,
  response: { 200: SuccessSchema, ...errorResponses },
};

export const RemoveUser = {
  tags,
  summary: 'Delete a user with their sessions and accounts',
  body: byUserId,
  response: { 200: SuccessSchema, ...errorResponses },
};

export const SetUserPassword = {
  tags,
  summary: "Set a user's password",
  body: Type.Object({ newPassword: PasswordField, userId: UserId }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

const PermissionMap = Type.Record(
  Type.String({ maxLength: 64 }),
  Type.Array(Type.String({ maxLength: 64 }), { maxItems: 32 }),
);
export const HasPermission = {
  tags,
  summary:
    "Whether the session's user (or, for servers with the service credential, a user id or role) has permissions",
  body: Type.Object(
    {
      permissions: Type.Optional(PermissionMap),
      permission: Type.Optional(PermissionMap),
      userId: Type.Optional(UserId),
      role: Type.Optional(Type.String({ maxLength: 256 })),
    },
    strict,
  ),
  response: {
    200: Type.Object({ error: Nullable(Type.String()), success: Type.Boolean() }),
    ...errorResponses,
  },
};

export const ListOrganizations = {
  tags,
  summary: 'All organizations with their member counts (console)',
  description:
    'searchValue matches part of the name or the slug, ignoring case. sortBy: createdAt (default, newest first), ' +
    'name or memberCount; sortDirection asc or desc.',
  querystring: Type.Object(
    {
      limit: Type.Optional(Count),
      offset: Type.Optional(Count),
      searchValue: Type.Optional(Type.String({ maxLength: 100 })),
      sortBy: Type.Optional(Type.Union([Type.Literal('createdAt'), Type.Literal('name'), Type.Literal('memberCount')])),
      sortDirection: Type.Optional(Type.Union([Type.Literal('asc'), Type.Literal('desc')])),
    },
    strict,
  ),
  response: {
    200: Type.Object({
      organizations: Type.Array(OrganizationSummarySchema),
      total: Type.Integer(),
      limit: Type.Integer(),
      offset: Type.Integer(),
    }),
    ...errorResponses,
  },
};

const Grants = Type.Record(Type.String(), Type.Array(Type.String()), {
  description: 'What the role grants: actions by resource',
});

export const ListRoles = {
  tags,
  summary: 'The configured role names and what each grants (user roles; organization roles when that feature is on)',
  description:
    'For pickers: the user roles of admin set-role and create-user, and the member roles of organization calls. ' +
    'Needs the user:list permission.',
  response: {
    200: Type.Object({
      roles: Type.Array(
        Type.Object({
          name: Type.String(),
          /** An admin role (impersonation and the admin console treat it as one). */
          admin: Type.Boolean(),
          permissions: Grants,
        }),
      ),
      defaultRole: Type.String(),
      organizationRoles: Type.Union([
        Type.Array(
          Type.Object({
            name: Type.String(),
            /** The role a new organization's creator gets. */
            creator: Type.Boolean(),
            permissions: Grants,
          }),
        ),
        Type.Null(),
      ]),
    }),
    ...errorResponses,
  },
};

export const SendResetPassword = {
  tags,
  summary: 'Mail a user a password-reset link (as if they had asked for it)',
  body: Type.Object({ userId: UserId, redirectTo: Type.Optional(RedirectField) }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

export const ResetTwoFactor = {
  tags,
  summary:
    "Remove a user's second factors: TOTP secret, backup codes, trusted devices and passkeys (the user is mailed)",
  description:
    'Needs the `user: set-password` permission. Answers TWO_FACTOR_NOT_ENABLED when the user has none, ' +
    'CANNOT_RESET_YOUR_OWN_TWO_FACTOR for the caller (two-factor/disable, with the password, is the way).',
  body: Type.Object({ userId: UserId }, strict),
  response: { 200: UserAnswer, ...errorResponses },
};

/** A user's passkey as operators see it: what identifies it to the person, never its key or credential id. */
export const AdminPasskeySchema = Type.Object(
  {
    id: Type.String(),
    name: Nullable(Type.String()),
    deviceType: Type.String({ description: 'singleDevice, or multiDevice for a synced passkey' }),
    backedUp: Type.Boolean(),
    aaguid: Nullable(Type.String(), { description: "the authenticator model's AAGUID" }),
    createdAt: DateTime,
  },
  { $id: 'AdminPasskey', title: 'AdminPasskey' },
);

export const ListUserPasskeys = {
  tags,
  summary: "A user's passkeys (name, kind, when added), oldest first; the user's passkeyCount is their number",
  description: 'Needs the `user: get` permission. admin/reset-two-factor removes them with the other factors.',
  querystring: byUserId,
  response: { 200: Type.Array(AdminPasskeySchema), ...errorResponses },
};

export const SendVerificationEmail = {
  tags,
  summary: 'Mail a user whose email is not verified a verification link',
  body: Type.Object({ userId: UserId, callbackURL: Type.Optional(RedirectField) }, strict),
  response: { 200: StatusSchema, ...errorResponses },
};

export const AdminStats = {
  tags,
  summary:
    "The console dashboard's figures: users, new users, live sessions, bans in force, organizations, sign-ups per day",
  description:
    'Counts are exact, each read from an index or counter. newUsers7d: signed up in the last 7 days. bannedUsers: ' +
    'bans in force (a lapsed ban is not counted). signUpsPerDay: the last `days` UTC days (default 30), oldest first.',
  querystring: Type.Object({ days: Type.Optional(Type.Integer({ minimum: 1, maximum: 366 })) }, strict),
  response: {
    200: Type.Object({
      users: Type.Integer(),
      newUsers7d: Type.Integer(),
      activeSessions: Type.Integer(),
      bannedUsers: Type.Integer(),
      organizations: Type.Integer(),
      signUpsPerDay: Type.Array(Type.Object({ day: Type.String({ format: 'date' }), count: Type.Integer() })),
    }),
    ...errorResponses,
  },
};

/** What the routes take, typed by their schemas (docs/architecture.md): the services read these, never a copy. */
export type UserData = Static<typeof UserData>;
export type CreateUserInput = Static<typeof CreateUser.body>;
/** update-user's `data`: the profile fields and the role. */
export type UserUpdate = Static<typeof UpdateUser.body>['data'];
export type ListUsersQuery = Static<typeof ListUsers.querystring>;
export type RevokeSessionInput = Static<typeof RevokeUserSession.body>;
export type BanInput = Static<typeof BanUser.body>;
export type PermissionCheck = Static<typeof HasPermission.body>;
