import { PUBLIC_URL } from '../../setup/app';
import { type MailStack, startMailStack } from '../../setup/mail-stack';
import { as, createOrg, post, user } from './helpers';

/** The invitation mail end to end: the API enqueues after the commit, the real worker process sends it. */
let t: MailStack;
beforeAll(async () => {
  t = await startMailStack();
}, 60_000);
afterAll(() => t.close());

it('mails the invitee, in their language, a link that carries the invitation id', async () => {
  const owner = await user(t, { name: 'Ingrid Inviter' });
  const org = await createOrg(t, owner);
  const invitee = await user(t, { language: 'GERMAN' });
  const res = await post(t.app, '/organization/invite-member', { email: invitee.email, role: 'member' }, as(owner.jar));
  expect(res.statusCode).toBe(200);
  const mail = await t.mailTo(invitee.email);
  expect(mail.subject).toContain(org.name);
  expect(mail.subject).toContain('Ingrid Inviter');
  expect(mail.text).toContain('Einladung');
  expect(t.linkIn(mail).toString()).toBe(`${PUBLIC_URL}/accept-invitation/${res.json().id}`);
  const accepted = await post(
    t.app,
    '/organization/accept-invitation',
    { invitationId: res.json().id },
    as(invitee.jar),
  );
  expect(accepted.statusCode).toBe(200);
});

it('the subject carries names as plain text; the HTML part escapes them', async () => {
  const owner = await user(t, { name: '<i>Ivy</i>   Inviter' });
  const name = '<b>Acme</b>\n\n  Corp <script>x</script>';
  const org = await createOrg(t, owner, { name });
  expect(org.name).toBe(name);
  const invitee = await user(t, { language: 'ENG' });
  const res = await post(t.app, '/organization/invite-member', { email: invitee.email, role: 'member' }, as(owner.jar));
  expect(res.statusCode).toBe(200);
  const mail = await t.mailTo(invitee.email);
  expect(mail.subject).toBe('Ivy Inviter invited you to join Acme Corp');
  expect(mail.html).toContain('&lt;b&gt;Acme&lt;/b&gt;');
  expect(mail.html).toContain('&lt;script&gt;x&lt;/script&gt;');
  expect(mail.html).not.toContain('<script');
  expect(mail.html).toContain('<title>Ivy Inviter invited you to join Acme Corp</title>');
});
