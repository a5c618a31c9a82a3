import { type Static, Type } from 'typebox';
import { AUDIT_ACTOR_TYPES, AUDIT_TARGET_TYPES } from '../../shared/audit';
import { DateTime, errorResponses, Nullable, strict } from '../../shared/schemas';

/** list-events' page size when none is asked, and the largest it answers. */
export const DEFAULT_PAGE = 50;
export const MAX_PAGE = 200;

const tags = ['audit'];
/** `a, b or c`: a list of names in a description. */
const oneOf = (names: readonly string[]) => `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;

const filters = {
  actorId: Type.Optional(
    Type.String({ minLength: 1, maxLength: 128, description: 'The actor: a user, API key or service credential id' }),
  ),
  targetType: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 32,
      description: oneOf(AUDIT_TARGET_TYPES),
    }),
  ),
  targetId: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
  type: Type.Optional(
    Type.String({
      minLength: 1,
      maxLength: 64,
      description: 'An event type or a prefix of types, e.g. admin. or organization.member',
    }),
  ),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Events at or after this time' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Events before this time' })),
  cursor: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'nextCursor of the previous page' })),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, maximum: MAX_PAGE, description: `Events per page (default ${DEFAULT_PAGE})` }),
  ),
};

/**
 * An audit event as list-events answers it and a webhook message carries it (docs/audit.md, docs/webhooks.md): the
 * one definition of its shape, whose TypeScript types are EventView and EventData below.
 */
export const AuditEventSchema = Type.Object(
  {
    id: Type.String(),
    occurredAt: DateTime,
    type: Type.String(),
    actor: Type.Object({
      type: Type.String({ description: oneOf(AUDIT_ACTOR_TYPES) }),
      id: Nullable(Type.String()),
      impersonatorId: Nullable(Type.String({ description: 'The admin behind an impersonation session' })),
      email: Type.Optional(
        Nullable(
          Type.String({ description: "admin/list-events: a user actor's email (null: not a user, or deleted)" }),
        ),
      ),
      name: Type.Optional(Nullable(Type.String({ description: "admin/list-events: a user actor's name" }))),
      impersonatorEmail: Type.Optional(
        Nullable(Type.String({ description: 'admin/list-events: the email of the admin behind an impersonation' })),
      ),
    }),
    target: Nullable(Type.Object({ type: Type.String(), id: Type.String() })),
    organizationId: Nullable(Type.String()),
    ipAddress: Nullable(Type.String()),
    userAgent: Nullable(Type.String()),
    requestId: Nullable(Type.String()),
    details: Type.Record(Type.String(), Type.Unknown()),
  },
  { $id: 'AuditEvent', title: 'AuditEvent' },
);

const EventPageSchema = Type.Object(
  { events: Type.Array(AuditEventSchema), nextCursor: Nullable(Type.String()) },
  { $id: 'AuditEventPage', title: 'AuditEventPage' },
);

export const AdminListEvents = {
  tags,
  summary: 'The audit trail, newest first, filtered and paged by cursor (admin audit:read permission)',
  querystring: Type.Object(
    {
      ...filters,
      organizationId: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
      email: Type.Optional(
        Type.String({
          format: 'email',
          maxLength: 254,
          description: 'Failed sign-ins with this address (matched by digest)',
        }),
      ),
    },
    strict,
  ),
  response: { 200: EventPageSchema, ...errorResponses },
};

export const OrganizationListEvents = {
  tags,
  summary: "An organization's audit trail (organization audit:read permission: owner and admin by default)",
  querystring: Type.Object(
    {
      ...filters,
      organizationId: Type.Optional(
        Type.String({ minLength: 1, maxLength: 64, description: 'Default: the active organization' }),
      ),
    },
    strict,
  ),
  response: { 200: EventPageSchema, ...errorResponses },
};

/**
 * list-events' filters as both routes take them (organization/list-events has no `email`: failed sign-ins by
 * address are for operators only).
 */
export type ListEventsQuery = Static<typeof AdminListEvents.querystring>;

/** An event as list-events answers it. */
export type EventView = Static<typeof AuditEventSchema>;
/** What only admin/list-events adds to the actor (AuditEvents.named): the names operators recognise people by. */
type ActorNames = 'email' | 'name' | 'impersonatorEmail';
/** An event as stored, and as a webhook message's `data`: the view without the names. */
export type EventData = Omit<EventView, 'actor'> & { actor: Omit<EventView['actor'], ActorNames> };
