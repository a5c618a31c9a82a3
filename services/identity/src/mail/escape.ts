/**
 * The only places where untrusted text meets markup: HTML escaping, link checking and placeholder filling.
 * Templates hold plain text with `{placeholders}`; values come from the job and are user-supplied.
 */

/** A job that can never render (bad link, unknown kind): retrying cannot help, so queues fail it at once. */
export class MailRenderError extends Error {
  override name = 'MailRenderError';
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROL = /[\u0000-\u001f\u007f\u2028\u2029]+/g;
// biome-ignore lint/suspicious/noControlCharactersInRegex: links must not carry whitespace or control characters
const SPACE_OR_CONTROL = /[\s\u0000-\u001f\u007f]/;

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]);
}

/**
 * Control characters (CR/LF included) would let a value start new lines in a subject or a text body; a value
 * longer than `max` characters (an organization name of a page) is cut with an ellipsis.
 */
export function cleanValue(value: unknown, max = 200): string {
  const clean = String(value ?? '')
    .replace(CONTROL, ' ')
    .trim();
  return clean.length > max ? `${clean.slice(0, max - 1)}…` : clean;
}

// Elements whose content is code, not text: dropped whole.
const CODE_ELEMENT = /<(script|style)\b[^>]*>[\s\S]*?(<\/\1\s*>|$)/gi;
// A tag, comment or declaration (`<b>`, `</b>`, `<br/>`, `<!-- -->`), or one cut off at the end of the value.
const TAG = /<[/!?]?[a-z][^<>]*(>|$)|<!--[\s\S]*?(-->|$)/gi;
// Whitespace of any kind (NBSP, ideographic space, line and paragraph separators) and control characters.
// biome-ignore lint/suspicious/noControlCharactersInRegex: collapsing control characters is the point
const SPACE_OR_CONTROL_RUN = /[\s\u0000-\u001f\u007f-\u009f]+/g;

/**
 * A user-supplied value (a user's, an inviter's or an organization's name) as it goes into a subject line: plain
 * text. Markup is removed (repeatedly, so `<<b>script>` cannot reassemble a tag), control characters and
 * whitespace runs become one space, and the result is cut at `max` characters (code points) with an ellipsis.
 * Mail clients show subjects as text, so a tag there is at best noise and at worst a lure; the HTML part keeps
 * escaping the full value instead (render.ts).
 */
export function subjectText(value: unknown, max = 80): string {
  let text = String(value ?? '');
  for (let previous = ''; previous !== text; ) {
    previous = text;
    text = text.replace(CODE_ELEMENT, '').replace(TAG, '');
  }
  const chars = Array.from(text.replace(SPACE_OR_CONTROL_RUN, ' ').trim());
  if (chars.length <= max) return chars.join('');
  const cut = chars.slice(0, max - 1).join('');
  return `${cut.trimEnd()}…`;
}

/** A subject: the translated template with every value through subjectText, as one line. */
export function subjectLine(template: string, vars: Vars): string {
  return fill(template, vars, (value) => subjectText(value))
    .replace(SPACE_OR_CONTROL_RUN, ' ')
    .trim();
}

/**
 * Links are http(s) only: `javascript:`, `data:` and the like are refused, as is anything with whitespace or
 * control characters. Messages never include the link itself (it carries a token).
 */
export function assertHttpUrl(url: unknown): string {
  if (typeof url !== 'string' || url.length === 0 || url.length > 4096)
    throw new MailRenderError('mail link is missing or too long');
  if (SPACE_OR_CONTROL.test(url)) throw new MailRenderError('mail link contains whitespace or control characters');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new MailRenderError('mail link is not an absolute URL');
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
    throw new MailRenderError(`mail link scheme ${JSON.stringify(parsed.protocol)} is refused: only http and https`);
  return url;
}

export type Vars = Readonly<Record<string, string>>;

/**
 * Replaces `{key}` in a template with `encode(vars[key])` and the text around it with `encodeText(text)`.
 * An unknown placeholder throws, so a typo in a translation shows up in the render tests.
 */
export function fill(
  template: string,
  vars: Vars,
  encode: (value: string, key: string) => string = (v) => v,
  encodeText: (text: string) => string = (t) => t,
): string {
  let out = '';
  let last = 0;
  for (const match of template.matchAll(/\{([A-Za-z]+)\}/g)) {
    const key = match[1];
    if (!(key in vars)) throw new MailRenderError(`template placeholder {${key}} has no value`);
    out += encodeText(template.slice(last, match.index)) + encode(vars[key], key);
    last = match.index + match[0].length;
  }
  return out + encodeText(template.slice(last));
}
