import type { OrganizationChanges } from '../providers/dataProvider';

/** The largest metadata object the API takes (its schema's maxProperties). */
export const METADATA_MAX_KEYS = 64;
/** The longest logo address the API takes. */
export const LOGO_MAX_LENGTH = 2048;
/** What the create form asks of a slug too. */
export const SLUG_PATTERN = /^[a-z0-9][a-z0-9-]*$/;

type Translate = (key: string, options?: Record<string, unknown>) => string;

/**
 * Metadata as the edit dialog shows it: pretty JSON, `{}` when there is none.
 */
export const metadataText = (metadata: Record<string, unknown> | null | undefined) =>
  JSON.stringify(metadata ?? {}, null, 2);

/**
 * What is wrong with the metadata text (already translated), or undefined: it must be a JSON object, with at most
 * METADATA_MAX_KEYS keys; an empty text stands for `{}`.
 */
export function metadataProblem(text: string, translate: Translate): string | undefined {
  if (!text.trim()) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return translate('resources.organizations.edit.metadata_not_json', { reason: (error as Error).message });
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return translate('resources.organizations.edit.metadata_not_object');
  if (Object.keys(value).length > METADATA_MAX_KEYS)
    return translate('resources.organizations.edit.metadata_too_many', { max: METADATA_MAX_KEYS });
  return undefined;
}

/** What is wrong with the logo address, or undefined: empty (no logo) or an http(s) address. */
export function logoProblem(text: string, translate: Translate): string | undefined {
  const logo = text.trim();
  if (!logo) return undefined;
  if (logo.length > LOGO_MAX_LENGTH) return translate('resources.organizations.edit.logo_invalid');
  try {
    const url = new URL(logo);
    return url.protocol === 'https:' || url.protocol === 'http:'
      ? undefined
      : translate('resources.organizations.edit.logo_invalid');
  } catch {
    return translate('resources.organizations.edit.logo_invalid');
  }
}

export function slugProblem(text: string, translate: Translate): string | undefined {
  return SLUG_PATTERN.test(text.trim()) ? undefined : translate('resources.organizations.slug_help');
}

/** The stored organization the edit starts from. */
export interface EditableOrganization {
  name: string;
  slug: string;
  logo: string | null;
  metadata: Record<string, unknown> | null;
}

/**
 * The dialog's values → admin/organization/update's `data`: only what differs from the stored organization (an
 * empty logo removes it; an empty metadata text is `{}`). Call after the fields passed their checks.
 */
export function organizationChanges(
  values: { name: string; slug: string; logo: string; metadata: string },
  stored: EditableOrganization,
): OrganizationChanges {
  const changes: OrganizationChanges = {};
  const name = values.name.trim();
  const slug = values.slug.trim();
  const logo = values.logo.trim() || null;
  const metadata = (values.metadata.trim() ? JSON.parse(values.metadata) : {}) as Record<string, unknown>;
  if (name !== stored.name) changes.name = name;
  if (slug !== stored.slug) changes.slug = slug;
  if (logo !== (stored.logo ?? null)) changes.logo = logo;
  if (JSON.stringify(metadata) !== JSON.stringify(stored.metadata ?? {})) changes.metadata = metadata;
  return changes;
}
