import { assertHttpUrl, cleanValue, escapeHtml, fill, MailRenderError, subjectLine, type Vars } from './escape';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language, type MailJob } from './jobs';
import { COMMON, LANGUAGE_TAGS, roleLabel, TEMPLATES } from './templates';
import { layoutHtml, layoutText } from './templates/layout';

export { MailRenderError } from './escape';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** The language actually used (ENG when the job names none the spec knows). */
  language: Language;
}

/** Values set in bold in the HTML version: what the reader must check before clicking. */
const EMPHASIS = new Set(['newEmail', 'organizationName', 'role', 'code']);

/**
 * Pure: a job in, its subject, plain text and HTML out. Every job value is treated as hostile: escaped in HTML,
 * reduced to plain text in the subject (subjectLine), stripped of control characters everywhere, and the link must
 * be http(s) (MailRenderError otherwise).
 */
export function render(job: MailJob): RenderedMail {
  const translations = Object.hasOwn(TEMPLATES, job.kind) ? TEMPLATES[job.kind] : undefined;
  if (!translations) throw new MailRenderError(`unknown mail kind ${JSON.stringify(job.kind)}`);
  const url = assertHttpUrl(job.url);
  const language = languageOf(job.language);
  const copy = translations[language];
  const common = COMMON[language];
  const vars = varsOf(job, language);
  const greeting = vars.name ? common.greeting : common.greetingNoName;
  const plain = (template: string) => fill(template, vars);
  const html = (template: string) =>
    fill(
      template,
      vars,
      (v, key) => (EMPHASIS.has(key) ? `<strong>${escapeHtml(v)}</strong>` : escapeHtml(v)),
      escapeHtml,
    );
  const subject = subjectLine(copy.subject, vars);
  const page = {
    lang: LANGUAGE_TAGS[language],
    subject,
    url,
    button: copy.button,
    linkHint: common.linkHint,
    footer: common.footer,
  };
  return {
    subject,
    language,
    text: layoutText({ ...page, greeting: plain(greeting), paragraphs: copy.lines.map(plain) }),
    html: layoutHtml({ ...page, greeting: html(greeting), paragraphs: copy.lines.map(html) }),
  };
}

/** Jobs come back from Redis as JSON: a language this version does not know falls back to the default. */
function languageOf(value: unknown): Language {
  return typeof value === 'string' && Object.hasOwn(LANGUAGES, value) ? (value as Language) : DEFAULT_LANGUAGE;
}

function varsOf(job: MailJob, language: Language): Vars {
  const vars: Record<string, string> = { name: cleanValue(job.name) };
  if (job.kind === 'change-email') vars.newEmail = cleanValue(job.newEmail, 320);
  if (job.kind === 'email-otp' || job.kind === 'change-email-otp') vars.code = cleanValue(job.code, 12);
  if (job.kind === 'invitation') {
    vars.organizationName = cleanValue(job.organizationName);
    vars.inviterName = cleanValue(job.inviterName);
    vars.inviterEmail = cleanValue(job.inviterEmail, 320);
    vars.role = roleLabel(cleanValue(job.role), language);
  }
  return vars;
}
