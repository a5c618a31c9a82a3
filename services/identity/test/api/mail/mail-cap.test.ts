import { PUBLIC_URL } from '../../setup/app';
import { post, signUp } from '../../setup/fixtures';
import { type MailStack, startMailStack } from '../../setup/mail-stack';

/**
 * A rate limit on mail (docs/security.md, mail flooding): at most `mail.maxPerAddressPerHour` mails of
 * one kind to one address per hour, whichever client addresses ask. Past the cap the request answers exactly as
 * before and nothing is sent.
 */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack();
}, 60_000);
afterAll(() => t.close());

const settle = () => new Promise((r) => setTimeout(r, 1500));
const mailsTo = (email: string) => t.sink.messages.filter((m) => m.to.includes(email));

describe('mail per address cap', () => {
  it('20 reset requests for one address from 20 client addresses send exactly 5 mails; all answers identical', async () => {
    expect(t.config.mail.maxPerAddressPerHour).toBe(5);
    const u = await signUp(t.app);
    const answers = [];
    for (let i = 0; i < 20; i++)
      answers.push(
        await t.app.inject({
          method: 'POST',
          url: '/api/auth/request-password-reset',
          remoteAddress: `10.20.${i}.${i + 1}`,
          headers: { origin: PUBLIC_URL },
          payload: { email: u.email, redirectTo: '/reset' },
        }),
      );
    const first = answers[0];
    expect(first.statusCode).toBe(200);
    for (const res of answers) expect([res.statusCode, res.body]).toEqual([first.statusCode, first.body]);
    await t.sink.waitFor(() => mailsTo(u.email).length >= 5, 10_000);
    await settle();
    expect(mailsTo(u.email)).toHaveLength(5);
    // Decided when the mail is written: the capped ones never reach the outbox (their tokens alone are written).
    const written = await t.ctx.sql.query("SELECT 1 FROM outbox WHERE topic = 'mail' AND payload->>'to' = $1", [
      u.email,
    ]);
    expect(written).toHaveLength(5);

    // Per kind and per address: a verification mail to the same address, and a reset to another, still go.
    await post(t.app, '/send-verification-email', { email: u.email });
    await t.mailTo(u.email, (m) => t.linkIn(m).pathname === '/api/auth/verify-email');
    const other = await signUp(t.app);
    await post(t.app, '/request-password-reset', { email: other.email, redirectTo: '/reset' });
    await t.mailTo(other.email);
  });

  it('a signed-in verification request past the cap answers as before and sends nothing more', async () => {
    const u = await signUp(t.app);
    const answers = [];
    for (let i = 0; i < 7; i++)
      answers.push(await post(t.app, '/send-verification-email', { email: u.email }, { jar: u.jar }));
    for (const res of answers) expect([res.statusCode, res.json()]).toEqual([200, { status: true }]);
    await t.sink.waitFor(() => mailsTo(u.email).length >= 5, 10_000);
    await settle();
    expect(mailsTo(u.email)).toHaveLength(5);
  });
});
