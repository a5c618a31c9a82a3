import type { components, paths } from '../api/schema';

/** One endpoint as the API answers it (never with its secret) and one attempt of its delivery log. */
export type WebhookEndpoint = components['schemas']['WebhookEndpoint'];
export type WebhookDelivery = components['schemas']['WebhookDelivery'];
export type WebhookDeliveryPage = components['schemas']['WebhookDeliveryPage'];
export type WebhookEndpointWithSecret = components['schemas']['WebhookEndpointWithSecret'];
type Body<P extends '/admin/create-webhook-endpoint' | '/admin/update-webhook-endpoint'> = NonNullable<
  paths[P]['post']['requestBody']
>['content']['application/json'];
export type CreateWebhookBody = Body<'/admin/create-webhook-endpoint'>;
/** What an edit may change (update-webhook-endpoint's body without the id). */
export type WebhookChanges = Omit<Body<'/admin/update-webhook-endpoint'>, 'id'>;

/** The dialog's values: text as typed; `enabled` is the choice `yes` or `no`. */
export interface EndpointValues {
  url: string;
  eventTypes: string;
  description: string;
  enabled: string;
}

/**
 * The event types typed in one box → the list the API takes: separated by commas, spaces or new lines, trimmed,
 * empty entries and repeats dropped, in the order typed. The API judges each (exact types or prefixes ending in a
 * dot), so a wrong one is answered by its own message.
 */
export function parseEventTypes(text: string): string[] {
  return [
    ...new Set(
      text
        .split(/[\s,]+/)
        .map((t) => t.trim())
        .filter(Boolean),
    ),
  ];
}

/** The list → the box's text (comma-separated). */
export const eventTypesText = (types: readonly string[]) => types.join(', ');

/** The values an endpoint's edit dialog opens with. */
export function endpointValues(endpoint: WebhookEndpoint): EndpointValues {
  return {
    url: endpoint.url,
    eventTypes: eventTypesText(endpoint.eventTypes),
    description: endpoint.description ?? '',
    enabled: endpoint.enabled ? 'yes' : 'no',
  };
}

/** A dialog's values (by field name) as endpoint values; a field not there reads as empty. */
export function asEndpointValues(values: Record<string, string | undefined>): EndpointValues {
  return {
    url: values.url ?? '',
    eventTypes: values.eventTypes ?? '',
    description: values.description ?? '',
    enabled: values.enabled ?? '',
  };
}

/** The values a new endpoint's dialog opens with: empty, enabled. */
export const NEW_ENDPOINT: EndpointValues = { url: '', eventTypes: '', description: '', enabled: 'yes' };

/** create-webhook-endpoint's body: the URL as typed (trimmed), the types, enabled, a description when one is typed. */
export function createBody(values: EndpointValues): CreateWebhookBody {
  const description = values.description.trim();
  return {
    url: values.url.trim(),
    eventTypes: parseEventTypes(values.eventTypes),
    enabled: values.enabled !== 'no',
    ...(description ? { description } : {}),
  };
}

/**
 * update-webhook-endpoint's fields: only what differs from the endpoint (an emptied description is null, which
 * clears it). Nothing changed gives `{}`, which the API answers with "No data to update".
 */
export function endpointChanges(values: EndpointValues, endpoint: WebhookEndpoint): WebhookChanges {
  const changes: WebhookChanges = {};
  const url = values.url.trim();
  if (url !== endpoint.url) changes.url = url;
  const types = parseEventTypes(values.eventTypes);
  if (types.length !== endpoint.eventTypes.length || types.some((t, i) => t !== endpoint.eventTypes[i]))
    changes.eventTypes = types;
  const description = values.description.trim() || null;
  if (description !== (endpoint.description ?? null)) changes.description = description;
  const enabled = values.enabled !== 'no';
  if (enabled !== endpoint.enabled) changes.enabled = enabled;
  return changes;
}

/** How an endpoint stands: enabled, disabled by an operator, or disabled by the service after failing for days. */
export type EndpointState = 'enabled' | 'failing' | 'disabled' | 'disabled_failing';

export function endpointState(endpoint: Pick<WebhookEndpoint, 'enabled' | 'disabledReason' | 'failingSince'>) {
  if (endpoint.enabled) return endpoint.failingSince ? 'failing' : 'enabled';
  return endpoint.disabledReason === 'failing' ? 'disabled_failing' : 'disabled';
}

/**
 * Whether the delivery log shows what an operator just asked for: the newest attempt is not the one that was
 * newest when they asked (a new attempt came), or the wait is over.
 */
export function watchSettled(
  watch: { newest: string | null; until: number } | null,
  newest: string | null,
  now: number,
): boolean {
  if (!watch) return true;
  return newest !== watch.newest || now >= watch.until;
}
