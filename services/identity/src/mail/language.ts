import { Type } from 'typebox';
import { DEFAULT_LANGUAGE, LANGUAGE_NAMES, LANGUAGE_TAGS, type Language } from './jobs';

/**
 * spec §1 language enumeration, by name: the language of the user's mail. Typed as `Language`: a union built from
 * a list has no tuple type for TypeBox to read, so its Static would be `never`.
 */
export const LanguageField = Type.Unsafe<Language>(
  Type.Union(
    LANGUAGE_NAMES.map((name) => Type.Literal(name)),
    { description: 'Language of mail: RUS, UKR, ENG, SPA, GERMAN, POL, FRA or TURKEY' },
  ),
);

/** Accept-Language primary subtag → language of the spec §1 enumeration. */
const BY_SUBTAG = new Map(LANGUAGE_NAMES.map((name) => [LANGUAGE_TAGS[name], name]));

/** The user's stored language, else the best Accept-Language match, else ENG. */
export function mailLanguage(stored: string | null | undefined, acceptLanguage?: string): Language {
  if (stored && (LANGUAGE_NAMES as string[]).includes(stored)) return stored as Language;
  const ranked = (acceptLanguage ?? '')
    .slice(0, 512)
    .split(',')
    .map((part, index) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
      return { tag: tag.toLowerCase().split('-')[0], q: q ? Number(q.slice(2)) : 1, index };
    })
    .filter((entry) => entry.q > 0 && BY_SUBTAG.has(entry.tag))
    .sort((a, b) => b.q - a.q || a.index - b.index);
  return ranked[0] ? BY_SUBTAG.get(ranked[0].tag)! : DEFAULT_LANGUAGE;
}
