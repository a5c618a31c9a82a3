import {
  ACCOUNT_ERRORS,
  ADMIN_ERRORS,
  API_KEY_ERRORS,
  CATALOGUE,
  EXTRA_ERRORS,
  MESSAGES,
  ORGANIZATION_ERRORS,
  REDIRECT_ERRORS,
} from '../../src/errors/catalogue';
import { readSpec, section } from '../setup/spec';

const spec = readSpec();
const catalogue = section(spec, '## 8. The error catalogue');

/**
 * "A; B; "C. D."; E (403)." → ['A', 'B', 'C. D.', 'E']: split on semicolons outside quotes and parentheses, drop
 * status and other parentheticals, and the sentence's final period when that period is not part of the message.
 */
function messages(paragraph: string, keepFinalPeriod = false): string[] {
  const parts: string[] = [];
  let current = '';
  let quoted = false;
  let depth = 0;
  for (const ch of paragraph) {
    if (ch === '"') quoted = !quoted;
    else if (ch === '(' && !quoted) depth++;
    else if (ch === ')' && !quoted) depth--;
    if (ch === ';' && !quoted && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  const last = parts.length - 1;
  return parts
    .map((p, i) => (i === last && !keepFinalPeriod ? p.trim().replace(/\.$/, '') : p.trim()))
    .map((p) => p.replace(/\s*\([^"]*\)$/, '').replace(/^"|"$/g, ''))
    .filter(Boolean);
}

const paragraphAfter = (heading: string): string => section(catalogue, heading).trim().split('\n')[0];
const statusIn = (text: string, message: string): number | undefined => {
  const m = new RegExp(`${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"?\\s*\\((\\d{3})\\)`).exec(text);
  return m ? Number(m[1]) : undefined;
};
const texts = (group: Record<string, { message: string }>) => Object.values(group).map((e) => e.message);

describe('error catalogue ↔ spec §8', () => {
  it.each([
    ['### Account messages', ACCOUNT_ERRORS],
    ['### Organization messages', ORGANIZATION_ERRORS],
    ['### API key messages', API_KEY_ERRORS],
  ])('every message under %s is in the catalogue verbatim, with the status the spec gives', (heading, group) => {
    const paragraph = paragraphAfter(heading);
    const expected = messages(
      paragraph.replace(/ The calls that raise them: not shown\.$/, ''),
      heading.startsWith('### API'),
    );
    expect(expected.length).toBeGreaterThan(5);
    for (const message of expected) expect(texts(group)).toContain(message);
    for (const entry of Object.values(group)) {
      const stated = statusIn(paragraph, entry.message);
      if (stated !== undefined) expect([entry.message, entry.status]).toEqual([entry.message, stated]);
    }
    expect(texts(group).sort()).toEqual([...new Set(expected)].sort());
  });

  it('every admin message is in the catalogue, one "not allowed" text per action the spec lists', () => {
    const paragraph = paragraphAfter('### Admin messages');
    const [before, after] = paragraph.split(/a not-allowed message for each of: /);
    const actions = after.slice(0, after.indexOf(';')).split(/, /);
    expect(actions).toHaveLength(9);
    const notAllowed = texts(ADMIN_ERRORS).filter((m) => m.startsWith('You are not allowed to '));
    expect(notAllowed).toHaveLength(actions.length);
    const plain = messages(`${before}${after.slice(after.indexOf(';') + 1)}`);
    for (const message of plain) {
      if (message === 'User already exists') expect(texts(ACCOUNT_ERRORS)).toContain(message);
      else expect(texts(ADMIN_ERRORS)).toContain(message);
    }
    expect(ADMIN_ERRORS.BANNED_USER.message).toBe(
      'You have been banned from this application. Please contact support if you believe this is an error.',
    );
    expect(catalogue).toContain('code BANNED_USER');
  });

  it('uses only the statuses the spec allows for spec messages', () => {
    const sentence = /HTTP statuses used are ([^.]+)\./.exec(catalogue)![1];
    const allowed = sentence.match(/\d{3}/g)!.map(Number);
    expect(allowed).toEqual([400, 401, 403, 404, 422, 417, 500]);
    const fromSpec = { ...ACCOUNT_ERRORS, ...ORGANIZATION_ERRORS, ...ADMIN_ERRORS, ...API_KEY_ERRORS };
    for (const [code, entry] of Object.entries(fromSpec))
      if (code !== 'USAGE_EXCEEDED' && code !== 'RATE_LIMITED')
        expect([code, allowed]).toEqual([code, expect.arrayContaining([entry.status])]);
  });

  it('gives every entry a stable UPPER_SNAKE code, and no code two meanings', () => {
    for (const code of Object.keys(CATALOGUE)) expect(code).toMatch(/^[A-Z][A-Z0-9_]+$/);
    const groups = [ACCOUNT_ERRORS, ORGANIZATION_ERRORS, ADMIN_ERRORS, API_KEY_ERRORS, EXTRA_ERRORS];
    const total = groups.reduce((n, g) => n + Object.keys(g).length, 0);
    expect(Object.keys(CATALOGUE)).toHaveLength(total);
  });

  it('extras are those of spec §5 or documented additions, never a §8 message under another code', () => {
    const section5 = section(spec, '## 5. Validation rules');
    expect(section5).toContain(EXTRA_ERRORS.EMAIL_IS_THE_SAME.message);
    expect(section5).toContain(EXTRA_ERRORS.COULDNT_UPDATE_EMAIL.message);
    for (const extra of texts(EXTRA_ERRORS)) expect(catalogue).not.toContain(`${extra};`);
  });

  it('holds the verbatim answer texts and every redirect error code', () => {
    expect(catalogue).toContain(MESSAGES.RESET_PASSWORD_REQUESTED);
    expect(spec).toContain(
      `Returns success and message (${MESSAGES.USER_DELETED} or ${MESSAGES.VERIFICATION_EMAIL_SENT})`,
    );
    expect(spec).toContain(MESSAGES.TEAM_REMOVED);
    for (const [flow, heading] of [
      ['verifyEmail', '- verify-email: '],
      ['callback', '- callback: '],
      ['resetPassword', '- reset-password: '],
    ] as const) {
      const line = catalogue.slice(catalogue.indexOf(heading) + heading.length).split('\n')[0];
      expect([...REDIRECT_ERRORS[flow]]).toEqual(line.replace(/\.$/, '').split(', '));
    }
  });
});
