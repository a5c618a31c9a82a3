import { createAuthClient } from 'better-auth/client';
import { magicLinkClient } from 'better-auth/client/plugins';
import { listenOnLoopback, startTestApp } from '../setup/app';
import { browserFetch } from '../setup/browser-client';
import { post, signUp } from '../setup/fixtures';
import { type MailStack, startMailStack } from '../setup/mail-stack';

/**
 * The published better-auth client's `magicLinkClient()` over real HTTP against the magic-link routes
 * (docs/passwordless.md), with the real mail worker and an SMTP sink: what a product frontend does.
 */
let t: MailStack;
let baseURL: string;
beforeAll(async () => {
  t = await startMailStack({}, { MAGIC_LINK_ENABLED: 'true' });
  baseURL = await listenOnLoopback(t.app);
}, 60_000);
afterAll(() => t?.close());

const browser = () => {
  const { jar, fetchOptions } = browserFetch();
  return { jar, client: createAuthClient({ baseURL, fetchOptions, plugins: [magicLinkClient()] }) };
};

describe('magicLinkClient', () => {
  it('signIn.magicLink → mailed link → magicLink.verify → a session the client reads', async () => {
    const u = await signUp(t.app);
    const b = browser();
    const sent = await b.client.signIn.magicLink({ email: u.email, callbackURL: '/dashboard' });
    expect([sent.error, sent.data]).toEqual([null, { status: true }]);
    const link = t.linkIn(await t.mailTo(u.email, (m) => m.text.includes('/magic-link')));
    const token = link.searchParams.get('token')!;
    const verified = await b.client.magicLink.verify({ query: { token } });
    expect(verified.error).toBeNull();
    expect(verified.data).toMatchObject({ user: { email: u.email }, session: { userId: u.userId } });
    const session = await b.client.getSession();
    expect(session.data?.user.email).toBe(u.email);
    const again = await b.client.magicLink.verify({ query: { token } });
    expect(again.error).toMatchObject({ status: 400, code: 'INVALID_TOKEN' });
  });

  it('an untrusted callbackURL is refused with the catalogue code', async () => {
    const { error } = await browser().client.signIn.magicLink({
      email: 'someone@example.com',
      callbackURL: 'https://evil.example/',
    });
    expect(error).toMatchObject({ status: 403, code: 'INVALID_CALLBACK_URL' });
  });
});

describe('magic link switched off (the default)', () => {
  it('has no routes', async () => {
    const off = await startTestApp();
    try {
      expect(off.config.magicLink.enabled).toBe(false);
      expect((await post(off.app, '/sign-in/magic-link', { email: 'a@example.com' })).statusCode).toBe(404);
    } finally {
      await off.close();
    }
  });
});
