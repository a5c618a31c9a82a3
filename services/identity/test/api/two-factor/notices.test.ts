import type { TestApp } from '../../setup/app';
import { PASSWORD, post, signUp } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { codeAt, enrolledUser, secretOf } from './helpers';

/** Mail notices (docs/two-factor.md): a factor added or removed, backup codes regenerated, in the user's language. */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack();
}, 60_000);
afterAll(() => t.close());

const app = () => t as TestApp;

describe('second-factor notices', () => {
  it('enabling mails a notice in the stored language, linking to the product, with no secret in it', async () => {
    const u = await signUp(t.app, { language: 'GERMAN' });
    const { totpURI, backupCodes } = (
      await post(t.app, '/two-factor/enable', { password: PASSWORD }, { jar: u.jar })
    ).json();
    await post(t.app, '/two-factor/verify-totp', { code: await codeAt(app(), secretOf(totpURI)) }, { jar: u.jar });
    const mail = await t.mailTo(u.email, (m) => m.subject.includes('Zwei-Faktor'));
    expect(mail.subject).toBe('Zwei-Faktor-Authentifizierung ist aktiviert');
    expect(t.linkIn(mail).origin).toBe(t.config.publicUrl);
    expect(mail.text).not.toContain(secretOf(totpURI));
    for (const code of backupCodes) expect(mail.text).not.toContain(code);
  });

  it('regenerating backup codes and disabling mail their notices (Accept-Language when none is stored)', async () => {
    const u = await enrolledUser(app());
    await post(
      t.app,
      '/two-factor/generate-backup-codes',
      { password: PASSWORD },
      {
        jar: u.jar,
        headers: { 'accept-language': 'fr-FR,fr;q=0.9' },
      },
    );
    const regenerated = await t.mailTo(u.email, (m) => m.subject.includes('codes de secours'));
    expect(regenerated.subject).toBe('De nouveaux codes de secours ont été créés');
    await post(t.app, '/two-factor/disable', { password: PASSWORD }, { jar: u.jar });
    const disabled = await t.mailTo(u.email, (m) => m.subject === 'Two-factor authentication is off');
    expect(disabled.text).toContain('no longer work');
  });

  it('a refused change mails nothing', async () => {
    const u = await enrolledUser(app());
    t.sink.clear();
    await post(t.app, '/two-factor/disable', { password: 'wrong password' }, { jar: u.jar });
    await post(t.app, '/two-factor/generate-backup-codes', { password: 'wrong password' }, { jar: u.jar });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(t.sink.messages.filter((m) => m.to.includes(u.email) && !m.subject.includes('is on'))).toEqual([]);
  });
});
