import { subjectText } from '../../src/mail/escape';
import { LANGUAGE_NAMES, type Language, type MailJob, type MailKind } from '../../src/mail/jobs';
import { idFor } from '../../src/mail/queue';
import { MailRenderError, render } from '../../src/mail/render';
import { TEMPLATES } from '../../src/mail/templates';
import { sampleJob } from './helpers';

const KINDS = Object.keys(TEMPLATES) as MailKind[];
const TAGS: Record<Language, string> = {
  RUS: 'ru',
  UKR: 'uk',
  ENG: 'en',
  SPA: 'es',
  GERMAN: 'de',
  POL: 'pl',
  FRA: 'fr',
  TURKEY: 'tr',
};

describe('render: every kind in every language', () => {
  it('knows every kind and the eight languages of the spec', () => {
    expect(KINDS.sort()).toEqual([
      'backup-codes-regenerated',
      'change-email',
      'change-email-otp',
      'delete-account',
      'email-otp',
      'invitation',
      'magic-link',
      'passkey-added',
      'passkey-removed',
      'reset-password',
      'two-factor-disabled',
      'two-factor-enabled',
      'two-factor-reset',
      'verify-email',
    ]);
    expect(LANGUAGE_NAMES.sort()).toEqual(Object.keys(TAGS).sort());
  });

  for (const kind of KINDS) {
    for (const language of LANGUAGE_NAMES) {
      it(`${kind} / ${language}: subject, text and HTML with the link`, () => {
        const job = sampleJob(kind, 'ann@example.test', language);
        const mail = render(job);
        expect(mail.language).toBe(language);
        expect(mail.subject.trim().length).toBeGreaterThan(5);
        expect(mail.subject).not.toMatch(/[{}\r\n]/);
        expect(mail.text).toContain(job.url);
        expect(mail.text).not.toMatch(/[{}]/);
        expect(mail.html).toContain(`href="${job.url}"`);
        expect(mail.html).toContain(`<html lang="${TAGS[language]}"`);
        expect(mail.html).toContain(`<title>`);
        expect(mail.text).toContain('Ann Example');
      });
    }

    it(`${kind}: no language reuses another's text (no silent fallback to English)`, () => {
      const copies = LANGUAGE_NAMES.map((language) => TEMPLATES[kind][language]);
      expect(new Set(copies.map((c) => c.subject)).size).toBe(LANGUAGE_NAMES.length);
      expect(new Set(copies.map((c) => c.button)).size).toBe(LANGUAGE_NAMES.length);
      const english = TEMPLATES[kind].ENG;
      for (const language of LANGUAGE_NAMES.filter((l) => l !== 'ENG')) {
        const text = render(sampleJob(kind, 'a@example.test', language)).text;
        for (const line of english.lines) expect(text).not.toContain(line);
        expect(TEMPLATES[kind][language].lines.length).toBe(english.lines.length);
      }
    });
  }

  it('puts the values in: new address, organization, inviter, translated role', () => {
    const change = render(sampleJob('change-email', 'a@example.test', 'ENG'));
    expect(change.text).toContain('ann.new@example.test');
    expect(change.html).toContain('<strong>ann.new@example.test</strong>');
    const invite = render(sampleJob('invitation', 'a@example.test', 'GERMAN'));
    expect(invite.subject).toBe('Bob Boss hat Sie zu Acme Rockets eingeladen');
    expect(invite.text).toContain('Bob Boss (bob@acme.test)');
    expect(invite.text).toContain('als Mitglied beizutreten');
    const job = { ...sampleJob('invitation', 'a@example.test', 'FRA'), role: 'admin, billing' } as MailJob;
    expect(render(job).text).toContain('en tant que administrateur, billing');
  });

  it('greets without a name when there is none, and falls back to ENG for an unknown language', () => {
    const job = { ...sampleJob('verify-email', 'a@example.test', 'SPA'), name: '' };
    expect(render(job).text.startsWith('Hola:\n')).toBe(true);
    const unknown = { ...sampleJob('verify-email', 'a@example.test'), language: 'KLINGON' } as unknown as MailJob;
    expect(render(unknown).language).toBe('ENG');
    expect(render(unknown).subject).toBe('Confirm your email address');
  });
});

describe('render: hostile values', () => {
  const hostile = `<script>alert("x")</script> O'Brien & Sons`;

  it('escapes user-supplied values in the HTML and keeps them readable in the text', () => {
    const job = {
      ...sampleJob('invitation', 'a@example.test'),
      name: hostile,
      organizationName: `<img src=x onerror="alert(1)">`,
      inviterName: `"Mallory" <evil@x.test>`,
      inviterEmail: `evil@x.test"><a href="//evil">`,
      role: `<b>admin</b>`,
    } as MailJob;
    const { html, text, subject } = render(job);
    expect(html).not.toContain('<script');
    expect(html).not.toContain('<img');
    expect(html).not.toContain('<b>admin');
    expect(html).not.toContain('href="//evil"');
    expect(html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; O&#39;Brien &amp; Sons');
    expect(html).toContain('&lt;img src=x onerror=&quot;alert(1)&quot;&gt;');
    expect(text).toContain(hostile);
    expect(subject).toBe('"Mallory" invited you to join');
  });

  it('strips line breaks from values (no header or line injection)', () => {
    const job = { ...sampleJob('invitation', 'a@example.test'), inviterName: 'Eve\r\nBcc: victim@x.test' } as MailJob;
    const { subject, text } = render(job);
    expect(subject).not.toMatch(/[\r\n]/);
    expect(text).not.toContain('\nBcc:');
  });

  it('escapes the link in attributes', () => {
    const url = 'https://id.example.test/reset?token=abc&next="><script>alert(1)</script>';
    const { html } = render({ ...sampleJob('reset-password', 'a@example.test'), url });
    expect(html).not.toContain('"><script>');
    expect(html).toContain('href="https://id.example.test/reset?token=abc&amp;next=&quot;&gt;&lt;script&gt;');
  });

  it.each([
    'javascript:alert(1)',
    'JavaScript:alert(document.cookie)',
    'data:text/html,<script>alert(1)</script>',
    'vbscript:msgbox',
    'ftp://files.example.test/x',
    '/api/auth/reset-password/abc',
    'https://id.example.test/a b',
    ' https://id.example.test/',
    'https://id.example.test/\nx',
    '',
  ])('refuses the link %j', (url) => {
    expect(() => render({ ...sampleJob('reset-password', 'a@example.test'), url })).toThrow(MailRenderError);
  });

  it('refuses an unknown kind', () => {
    const job = { ...sampleJob('verify-email', 'a@example.test'), kind: 'weird' } as unknown as MailJob;
    expect(() => render(job)).toThrow(MailRenderError);
  });
});

describe('subjectText: user values in a subject are plain text', () => {
  it.each([
    ['<b>Acme</b>\n\n  Corp <script>x</script>', 'Acme Corp'],
    ['<i>Ivy</i>   Inviter', 'Ivy Inviter'],
    ['<STYLE type="text/css">p{}</STYLE>Acme<br/> Corp', 'Acme Corp'],
    ['Acme<!-- note -->Corp', 'AcmeCorp'],
    ['<<b>script>alert(1)<</b>/script>Acme', 'Acme'],
    ['Acme <img src=x onerror=alert(1)', 'Acme'],
    ['Eve\r\nBcc: victim@x.test', 'Eve Bcc: victim@x.test'],
    ['a\t\u0000b\u2028c\u00a0\u3000d', 'a b c d'],
    ['  R&D < 5 > 3 and 1<2  ', 'R&D < 5 > 3 and 1<2'],
    ['', ''],
  ])('%j → %j', (value, expected) => {
    expect(subjectText(value)).toBe(expected);
  });

  it('caps the length at 80 characters with an ellipsis, never splitting a character', () => {
    expect(subjectText('x'.repeat(80))).toBe('x'.repeat(80));
    expect(subjectText('x'.repeat(81))).toBe(`${'x'.repeat(79)}…`);
    const emoji = subjectText('🚀'.repeat(100));
    expect(Array.from(emoji)).toHaveLength(80);
    expect(emoji).toBe(`${'🚀'.repeat(79)}…`);
    expect(subjectText(`<b>${'y'.repeat(200)}</b>`, 10)).toBe(`${'y'.repeat(9)}…`);
  });

  it('is what every kind puts in its subject', () => {
    for (const kind of KINDS) {
      const job = { ...sampleJob(kind, 'a@example.test'), name: '<b>Ann</b>' } as MailJob;
      const withMarkup = {
        ...job,
        organizationName: '<u>Acme</u>\n  Rockets',
        inviterName: `<em>${'Bob '.repeat(40)}</em>`,
      } as MailJob;
      const { subject } = render(withMarkup);
      expect([kind, /[<>]/.test(subject)]).toEqual([kind, false]);
      if (kind === 'invitation')
        expect(subject).toBe(`${subjectText('Bob '.repeat(40))} invited you to join Acme Rockets`);
    }
  });
});

describe('idFor', () => {
  it('is stable, differs by kind and secret, and does not reveal the secret', () => {
    const secret = 'tok_secret-value';
    const id = idFor('reset-password', secret);
    expect(id).toBe(idFor('reset-password', secret));
    expect(id).not.toBe(idFor('verify-email', secret));
    expect(id).not.toBe(idFor('reset-password', `${secret}x`));
    expect(id).not.toContain(secret);
    expect(id).not.toContain(':');
    expect(id).toMatch(/^reset-password\.[A-Za-z0-9_-]{43}$/);
  });
});

describe('render: the one-time code', () => {
  it('puts the code in the subject and in bold in the HTML, escaped like any value', () => {
    const mail = render({
      kind: 'email-otp',
      to: 'ann@example.test',
      name: 'Ann',
      language: 'ENG',
      code: '042917',
      url: 'https://id.example.test/auth',
    });
    expect(mail.subject).toBe('Your code: 042917');
    expect(mail.text).toContain('Your one-time code is 042917.');
    expect(mail.html).toContain('<strong>042917</strong>');
    const change = render({
      ...sampleJob('change-email-otp', 'ann.new@example.test', 'ENG'),
      code: '042917',
    } as MailJob);
    expect(change.subject).toBe('Confirm your new email address: 042917');
    expect(change.html).toContain('<strong>042917</strong>');
  });
});
