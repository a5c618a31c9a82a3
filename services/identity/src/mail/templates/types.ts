import type { Language } from '../jobs';

/**
 * One mail in one language: plain text with `{placeholders}` (escaped by the renderer, never here).
 * Placeholders: {name}, {newEmail}, {organizationName}, {inviterName}, {inviterEmail}, {role}, {code}.
 */
export interface Copy {
  subject: string;
  /** Paragraphs of the body, between the greeting and the button. */
  lines: readonly string[];
  /** The button label; the plain-text version puts it before the link. */
  button: string;
}

/** Every language of the spec's enumeration must be present: a missing one is a compile error. */
export type Translations = Readonly<Record<Language, Copy>>;
