import { startTestApp, type TestApp } from '../../setup/app';
import { post, signIn, signUp, uniqueEmail } from '../../setup/fixtures';
import { startMailStack } from '../../setup/mail-stack';
import { type SinkMessage, type SmtpSink, startSmtpSink } from '../../setup/smtp-sink';
import { startTcpProxy, type TcpProxy } from '../../setup/tcp-proxy';

const linkIn = (mail: SinkMessage) => new URL(mail.text.match(/https?:\/\/\S+/)![0]);
const RESET_MESSAGE = 'If this email exists in our system, check your email for the reset link.';

describe('mail faults (SECURITY: faults to survive)', () => {
  it('while the SMTP server refuses, the API answers at once and the mail arrives after retries', async () => {
    const t = await startMailStack();
    try {
      const user = await signUp(t.app);
      t.sink.refuseNext(2, 451);
      const res = await post(t.app, '/request-password-reset', { email: user.email });
      expect([res.statusCode, res.json()]).toEqual([200, { status: true, message: RESET_MESSAGE }]);
      const mail = await t.mailTo(user.email);
      expect(t.linkIn(mail).pathname).toMatch(/\/reset-password\/[A-Za-z0-9]{24}$/);
      expect(t.sink.attempts).toBeGreaterThanOrEqual(3);
    } finally {
      await t.close();
    }
  }, 60_000);

  describe('with Redis gone under a running API', () => {
    let proxy: TcpProxy;
    let t: TestApp;
    let sink: SmtpSink;
    beforeAll(async () => {
      sink = await startSmtpSink();
      proxy = await startTcpProxy(Number(new URL(process.env.TEST_REDIS_URL!).port || 6379));
      t = await startTestApp({}, { REDIS_URL: `redis://127.0.0.1:${proxy.port}/0`, SMTP_URL: sink.url });
    });
    afterAll(async () => {
      proxy.restore();
      await t?.close();
      await proxy.close();
      await sink?.stop();
    });

    it('the reset request answers a known and an unknown email alike, with no 500', async () => {
      const user = await signUp(t.app);
      proxy.cut();
      const known = await post(t.app, '/request-password-reset', { email: user.email });
      const unknown = await post(t.app, '/request-password-reset', { email: uniqueEmail('nobody') });
      expect([known.statusCode, known.json()]).toEqual([200, { status: true, message: RESET_MESSAGE }]);
      expect([unknown.statusCode, unknown.json()]).toEqual([known.statusCode, known.json()]);
      // The known address still gets its mail: this process sends it while the queue is away.
      expect(linkIn(await sink.waitFor((m) => m.to.includes(user.email))).pathname).toMatch(/reset-password/);
      await t.ctx.background.drain();
      proxy.restore();
    });

    it('a signed-in user is still recognised (PostgreSQL answers) and their verification mail still goes out', async () => {
      const user = await signUp(t.app);
      const session = await signIn(t.app, user.email);
      proxy.cut();
      const res = await post(t.app, '/send-verification-email', { email: user.email }, { bearer: session.token });
      expect([res.statusCode, res.json()]).toEqual([200, { status: true }]);
      const mail = await sink.waitFor((m) => m.to.includes(user.email));
      expect(linkIn(mail).pathname).toMatch(/verify-email$/);
      proxy.restore();
    });
  });
});
