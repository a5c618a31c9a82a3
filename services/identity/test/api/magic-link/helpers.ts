import { CookieJar, get, post } from '../../setup/fixtures';
import type { MailStack } from '../../setup/mail-stack';

export const LINK_COOKIE = 'better-auth.magic_link';
export const ON = { MAGIC_LINK_ENABLED: 'true' };

/** Asks for a link in `jar`'s browser and answers the token from the sign-in mail that arrives (not a notice). */
export async function mailedLink(t: MailStack, email: string, body: object = {}, jar = new CookieJar()) {
  const links = () => t.sink.messages.filter((m) => m.to.includes(email) && m.text.includes('/magic-link'));
  const before = links().length;
  const res = await post(t.app, '/sign-in/magic-link', { email, ...body }, { jar });
  if (res.statusCode !== 200) throw new Error(`sign-in/magic-link: ${res.statusCode} ${res.body}`);
  await t.sink.waitFor(() => links().length > before, 10_000);
  const message = links()[before];
  const link = t.linkIn(message);
  return { jar, link, token: link.searchParams.get('token')!, message };
}

export const verify = (t: MailStack, token: string, jar: CookieJar, query = '') =>
  get(t.app, `/magic-link/verify?token=${encodeURIComponent(token)}${query}`, { jar });
