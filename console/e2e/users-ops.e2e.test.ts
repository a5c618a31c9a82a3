import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { generate } from 'otplib';
import type { Page, Request, Response } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { mailMatch } from '../../e2e/world';
import { cancel, choose, confirmAction, shownChoice } from './dialogs';
import { ADMIN, PRODUCT_URL, start, type World } from './harness';
import { axeProblems, buttonProblems, offscreenProblems, SHOTS, settled, shot } from './pageChecks';
import { signInAsAdmin } from './signIn';

const PASSWORD = 'User-pass-123!';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1';
const FIREFOX = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:121.0) Gecko/20100101 Firefox/121.0';
const ANDROID =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36';
const people = {
  rita: { email: 'rita.removed@ops-e2e.test', name: 'Rita Removed' },
  b3: { email: 'bulk.three@ops-e2e.test', name: 'Bulk Three' },
  b2: { email: 'bulk.two@ops-e2e.test', name: 'Bulk Two' },
  b1: { email: 'bulk.one@ops-e2e.test', name: 'Bulk One' },
  bob: { email: 'bob.banned@ops-e2e.test', name: 'Bob Banned' },
  vera: { email: 'vera.unverified@ops-e2e.test', name: 'Vera Unverified' },
  sam: { email: 'sam.sessions@ops-e2e.test', name: 'Sam Sessions' },
};
/** Made by the scenario that signs her in several ways (not in beforeAll: the other scenarios never see her). */
const MIA = { email: 'mia.methods@ops-e2e.test', name: 'Mia Methods' };

let world: World;
let adminCookie: string;
let page: Page;
const ids: Record<string, string> = {};

const api = (path: string, body?: unknown) => world.api(path, { body, cookie: adminCookie });
const getUser = async (id: string) => (await api(`/admin/get-user?id=${id}`)).body;
const sessionsOf = async (userId: string) =>
  (await api('/admin/list-user-sessions', { userId, hideTokens: true })).body.sessions as {
    id: string;
    ipAddress: string | null;
    createdAt: string;
    updatedAt: string;
  }[];

/** A POST to the API from a given browser (its user agent and cookies): the answer and the cookies it set. */
async function postFrom(userAgent: string, path: string, body: unknown, cookie?: string) {
  const res = await fetch(`${world.origin}/api/auth${path}`, {
    method: 'POST',
    headers: {
      origin: world.origin,
      'content-type': 'application/json',
      'user-agent': userAgent,
      ...(cookie ? { cookie } : {}),
    },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  const set = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .join('; ');
  return { body: await res.json(), cookie: set };
}

/** The session a cookie holds: the cookie and the session's id. */
async function sessionFor(cookie: string) {
  const session = await world.api('/get-session?disableCookieCache=true', { cookie });
  return { cookie, sessionId: session.body.session.id as string };
}

/** Signs in through the API from a given browser (its user agent), answering the session cookie and its id. */
async function signInFrom(email: string, userAgent: string) {
  return sessionFor((await postFrom(userAgent, '/sign-in/email', { email, password: PASSWORD })).cookie);
}

/** The cookies of a browser page, as a Cookie header: to ask the API who that page is signed in as. */
async function cookieOf(p: Page) {
  return (await p.context().cookies(world.origin)).map((c) => `${c.name}=${c.value}`).join('; ');
}

/** A user's page, opened by its address (the tab named, else the profile), once its actions are there. */
async function openUser(id: string, tab = '', p: Page = page) {
  await p.goto(`${world.origin}/#/users/${id}/show${tab ? `/${tab}` : ''}`);
  await p.getByRole('button', { name: 'Set role' }).waitFor();
}

/** Waits for a mail to `to` that the SMTP sink received, whose text matches `link`, and answers the match. */
const mailLink = (to: string, link: RegExp) => mailMatch(world.mailSink, to, link);

/** A ban's end as its badge writes it. */
const badgeTime = (iso: string) =>
  page.evaluate((t) => new Date(t).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }), iso);

/** A time `ms` from now to the minute: as a datetime-local field takes it (browser's zone), and as an instant. */
const localTime = (ms: number) =>
  page.evaluate((ahead) => {
    const d = new Date(Date.now() + ahead);
    d.setSeconds(0, 0);
    const pad = (n: number) => String(n).padStart(2, '0');
    const local = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
    return { local, at: d.getTime() };
  }, ms);

/** The users list, fresh (not react-admin's copy from an earlier visit), with nothing selected. */
async function openList(p: Page = page) {
  await p.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
  await p.reload();
  await p.getByRole('cell', { name: people.sam.email }).waitFor();
}

/** A row of the users list, by the user's email. */
const rowOf = (email: string) =>
  page.getByRole('row').filter({ has: page.getByRole('cell', { name: email, exact: true }) });

/** Selects the rows of these users (only these), then runs a bulk action: answers its confirmation. */
async function bulk(action: string, emails: string[]) {
  for (const email of emails) await rowOf(email).getByRole('checkbox').check();
  await page.getByText(`${emails.length} items selected`).waitFor();
  return confirmAction(page.locator('[data-test="bulk-actions-toolbar"]'), action);
}

/** The result dialog of a bulk action: its title and what each user's row says; closed afterwards. */
async function bulkResults() {
  const dialog = page.getByTestId('bulk-results');
  await dialog.getByRole('heading').waitFor();
  const title = (await dialog.getByRole('heading').textContent()) ?? '';
  const rows: Record<string, string> = {};
  for (const item of await dialog.getByRole('listitem').all()) {
    const [email, outcome] = await item.locator('.MuiListItemText-root > *').allTextContents();
    rows[email] = outcome;
  }
  return { title, rows, close: () => dialog.getByRole('button', { name: 'Close' }).click() };
}

/** How the page writes a time (the browser's locale and zone): to find an API timestamp on the page. */
const shownTime = (iso: string, p: Page = page) => p.evaluate((t) => new Date(t).toLocaleString(), iso);

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  world = await start();
  const signedIn = await world.signIn(ADMIN.email, ADMIN.password);
  expect(signedIn.status).toBe(200);
  adminCookie = signedIn.cookie as string;
  for (const [key, person] of Object.entries(people)) {
    const created = await api('/admin/create-user', { ...person, password: PASSWORD });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    ids[key] = created.body.user.id;
  }
  ids.admin = signedIn.body.user.id;
  page = await world.newPage();
  await signInAsAdmin(page, world.origin);
});

afterEach(async (ctx) => {
  if (ctx.task.result?.state === 'fail')
    await page?.screenshot({ path: join(SHOTS, `failed-ops-${ctx.task.name.replace(/\W+/g, '-')}.png`) });
});

afterAll(async () => {
  await world?.stop();
});

describe('users: the ops staff daily work', () => {
  it('the sessions tab shows each session by device, browser, address, start and last activity, without tokens, and revokes one by its id', async () => {
    const phone = await signInFrom(people.sam.email, IPHONE);
    const firefox = await signInFrom(people.sam.email, FIREFOX);
    // What the page asks for and gets: hideTokens, and no token in the answer.
    const asked: unknown[] = [];
    const answered: { sessions: { token: string }[] }[] = [];
    const watch = (r: { url(): string }) => r.url().endsWith('/admin/list-user-sessions');
    const onRequest = (r: Request) => {
      if (watch(r)) asked.push(r.postDataJSON());
    };
    // A body the page navigated away from is gone (Chromium drops it): such an answer is not counted.
    const onResponse = (r: Response) => {
      if (watch(r))
        r.json().then(
          (body) => answered.push(body),
          () => undefined,
        );
    };
    page.on('request', onRequest);
    page.on('response', onResponse);

    await openUser(ids.sam, 'sessions');
    const sessions = await sessionsOf(ids.sam);
    expect(sessions.map((s) => s.id).sort()).toEqual([phone.sessionId, firefox.sessionId].sort());
    const rows = page.getByTestId('sessions').locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    const phoneRow = page.getByTestId(`session-${phone.sessionId}`);
    const firefoxRow = page.getByTestId(`session-${firefox.sessionId}`);
    expect(await phoneRow.textContent()).toContain('Apple iPhone · iOS 17.1');
    expect(await phoneRow.textContent()).toContain('Mobile Safari 17');
    expect(await firefoxRow.textContent()).toContain('Computer · Windows 10');
    expect(await firefoxRow.textContent()).toContain('Firefox 121');
    for (const s of sessions) {
      const text = await page.getByTestId(`session-${s.id}`).textContent();
      expect(text).toContain(await shownTime(s.createdAt));
      expect(text).toContain(await shownTime(s.updatedAt));
      if (s.ipAddress) expect(text).toContain(s.ipAddress);
    }
    expect(await page.getByText('This session').count()).toBe(0); // none of these is the admin's
    expect(asked.length).toBeGreaterThan(0);
    for (const body of asked) expect(body).toMatchObject({ userId: ids.sam, hideTokens: true });
    await expect.poll(() => answered.length).toBeGreaterThan(0);
    page.off('request', onRequest);
    page.off('response', onResponse);
    for (const body of answered) for (const s of body.sessions) expect(s.token).toBe('');

    // Revoke: the confirmation names the session (owner, device and browser, address, start).
    const dialog = await confirmAction(firefoxRow, 'Revoke');
    const named = await dialog.textContent();
    const firefoxSession = sessions.find((s) => s.id === firefox.sessionId)!;
    for (const part of [
      people.sam.email,
      'Computer · Windows 10',
      'Firefox 121',
      firefoxSession.ipAddress ?? 'an unknown address',
      await shownTime(firefoxSession.createdAt),
    ])
      expect(named).toContain(part);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Session of ${people.sam.email} revoked (Computer · Windows 10, Firefox 121)`).waitFor();
    await expect.poll(() => rows.count()).toBe(1);
    expect((await sessionsOf(ids.sam)).map((s) => s.id)).toEqual([phone.sessionId]);
    expect((await world.api('/get-session?disableCookieCache=true', { cookie: firefox.cookie })).body).toBeNull();
    const kept = await world.api('/get-session?disableCookieCache=true', { cookie: phone.cookie });
    expect(kept.body.session.id).toBe(phone.sessionId);
    await shot(page, 'user-sessions');
  });

  it('the sessions tab says how each session was made, in words, wide and at 360 px; unknown for older sessions', async () => {
    const created = await api('/admin/create-user', { ...MIA, password: PASSWORD });
    expect(created.status).toBe(200);
    const mia = created.body.user.id as string;
    const byPassword = await signInFrom(MIA.email, FIREFOX);
    const older = await signInFrom(MIA.email, IPHONE);
    // A session of a version that did not record the method.
    await world.query('UPDATE sessions SET sign_in_method = NULL, second_factor = NULL WHERE id = $1', [
      older.sessionId,
    ]);
    // A second factor: the authenticator app on, then a sign-in completed with a backup code.
    const enabled = await postFrom(FIREFOX, '/two-factor/enable', { password: PASSWORD }, byPassword.cookie);
    const secret = new URL(enabled.body.totpURI).searchParams.get('secret') ?? '';
    const code = await generate({ secret, algorithm: 'sha1', digits: 6, period: 30 });
    await postFrom(FIREFOX, '/two-factor/verify-totp', { code }, byPassword.cookie);
    const pending = await postFrom(ANDROID, '/sign-in/email', { email: MIA.email, password: PASSWORD });
    expect(pending.body).toMatchObject({ twoFactorRedirect: true });
    const backup = await postFrom(
      ANDROID,
      '/two-factor/verify-backup-code',
      { code: enabled.body.backupCodes[0] },
      pending.cookie,
    );
    const withBackup = await sessionFor(backup.cookie);
    // An operator's impersonation (the API's admin session, not this page's).
    const impersonated = await api('/admin/impersonate-user', { userId: mia });
    expect(impersonated.status).toBe(200);
    const expected: Record<string, string> = {
      [byPassword.sessionId]: 'Password',
      [older.sessionId]: 'Unknown',
      [withBackup.sessionId]: 'Password + backup code',
      [impersonated.body.session.id]: 'Impersonation',
    };
    const listed = await api('/admin/list-user-sessions', { userId: mia, hideTokens: true });
    expect(listed.body.sessions.map((s: { id: string }) => s.id).sort()).toEqual(Object.keys(expected).sort());

    await openUser(mia, 'sessions');
    await page.reload(); // no notification of an earlier scenario in the picture
    await page.getByRole('columnheader', { name: 'Signed in with' }).waitFor();
    for (const [id, words] of Object.entries(expected))
      expect(await page.getByTestId(`session-${id}`).getByTestId('signed-in-with').textContent()).toBe(words);
    await shot(page, 'user-sessions-signed-in-with');

    const p = await world.newPage({ width: 360, height: 860 });
    await signInAsAdmin(p, world.origin);
    await openUser(mia, 'sessions', p);
    await p.getByTestId('sessions').waitFor();
    // Narrow: no column of its own; the words are under the device, and seen.
    expect(await p.getByRole('columnheader', { name: 'Signed in with' }).count()).toBe(0);
    for (const [id, words] of Object.entries(expected)) {
      const said = p.getByTestId(`session-${id}`).getByTestId('signed-in-with-line');
      expect(await said.textContent()).toBe(`Signed in with: ${words}`);
      expect(await said.isVisible()).toBe(true);
    }
    await settled(p);
    expect(await buttonProblems(p)).toEqual([]);
    expect(await offscreenProblems(p)).toEqual([]);
    expect(await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
    expect(await axeProblems(p)).toEqual([]);
    await shot(p, 'user-sessions-signed-in-with-360');
    await p.context().close();
  });

  it("marks the admin's own current session on their sessions tab", async () => {
    const mine = await world.api('/get-session?disableCookieCache=true', { cookie: await cookieOf(page) });
    const current = mine.body.session.id as string;
    await openUser(ids.admin, 'sessions');
    const own = page.getByTestId(`session-${current}`);
    await own.getByText('This session').waitFor();
    expect(await page.getByText('This session', { exact: true }).count()).toBe(1);
    // The admin has other sessions (the API's sign-in in this run): only this browser's is marked.
    expect((await sessionsOf(ids.admin)).length).toBeGreaterThan(1);
    const dialog = await confirmAction(own, 'Revoke');
    expect(await dialog.textContent()).toContain('This is your own session');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect((await sessionsOf(ids.admin)).map((s) => s.id)).toContain(current);
  });

  it('sends a password reset and a verification mail from the user page: each confirmed by email, and their links work', async () => {
    world.startMailWorker();
    const { email } = people.vera;
    await openUser(ids.vera);
    let dialog = await confirmAction(page, 'Send password reset');
    expect(await dialog.textContent()).toContain(email);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`Password reset link sent to ${email}`).waitFor();
    const reset = await mailLink(email, /\/reset-password\/([A-Za-z0-9_-]+)/);
    const changed = await world.api('/reset-password', { body: { token: reset[1], newPassword: 'Reset-by-mail-1!' } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await world.signIn(email, 'Reset-by-mail-1!')).status).toBe(200);

    // Not verified yet: the verification mail is offered; Enter confirms its dialog.
    expect((await getUser(ids.vera)).emailVerified).toBe(false);
    dialog = await confirmAction(page, 'Send verification email');
    expect(await dialog.textContent()).toContain(email);
    await page.keyboard.press('Enter');
    await page.getByText(`Verification link sent to ${email}`).waitFor();
    const verify = await mailLink(email, /\/verify-email\?token=([^&\s"<>]+)/);
    const verified = await world.api(`/verify-email?token=${verify[1]}`);
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    expect((await getUser(ids.vera)).emailVerified).toBe(true);
    // Verified: only the reset is offered.
    await page.reload();
    await page.getByRole('button', { name: 'Send password reset' }).waitFor();
    expect(await page.getByRole('button', { name: 'Send verification email' }).count()).toBe(0);
  });

  it('bans for a length or until a date and time (sent as seconds); the dialog opens empty every time; the badge says until when and why', async () => {
    const { email } = people.bob;
    await openUser(ids.bob);
    // Typed and picked, then canceled: the next opening is empty, and nothing was sent.
    let dialog = await confirmAction(page, 'Ban');
    await dialog.getByTestId('ban-reason').fill('Typed then canceled');
    await choose(dialog, 'ban-expires', 'At a date and time…');
    await dialog.getByTestId('ban-until').fill((await localTime(3 * 86_400_000)).local);
    await cancel(dialog);
    dialog = await confirmAction(page, 'Ban');
    expect(await dialog.getByTestId('ban-reason').inputValue()).toBe('');
    expect(await shownChoice(dialog, 'ban-expires')).toBe('');
    expect(await dialog.getByTestId('ban-until').count()).toBe(0);
    expect(await dialog.getByRole('button', { name: 'Confirm' }).isDisabled()).toBe(true); // the end is picked first
    expect(await dialog.textContent()).toContain(email);
    expect((await getUser(ids.bob)).banned).toBe(false);

    // A length: a day, sent as 86400 seconds (Enter in the reason confirms).
    await dialog.getByTestId('ban-reason').fill('Chargeback fraud');
    await choose(dialog, 'ban-expires', 'In 1 day');
    const before = Date.now();
    await dialog.getByTestId('ban-reason').press('Enter');
    await page.getByText(`${email} banned and signed out everywhere`).waitFor();
    const banned = await getUser(ids.bob);
    expect(banned).toMatchObject({ banned: true, banReason: 'Chargeback fraud' });
    const ends = Date.parse(banned.banExpires);
    expect(ends).toBeGreaterThanOrEqual(before + 86_400_000 - 2000);
    expect(ends).toBeLessThanOrEqual(Date.now() + 86_400_000 + 2000);
    const badge = `Banned until ${await badgeTime(banned.banExpires)}: Chargeback fraud`;
    expect(await page.getByTestId('ban-badge').textContent()).toBe(badge); // above the tabs, on every tab
    await page.getByRole('tab', { name: 'Sessions' }).click();
    expect(await page.getByTestId('ban-badge').textContent()).toBe(badge);
    // In the list, at a glance.
    await page.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
    const row = page.getByRole('row', { name: new RegExp(email.replace(/\./g, '\\.')) });
    expect(await row.getByTestId('ban-status').textContent()).toBe(badge);
    expect((await api('/admin/unban-user', { userId: ids.bob })).status).toBe(200);

    // A date and time: one in the past is refused (the dialog stays, nothing sent); one ahead is sent as the
    // seconds until then.
    await openUser(ids.bob);
    await page.reload();
    dialog = await confirmAction(page, 'Ban');
    expect(await dialog.getByTestId('ban-reason').inputValue()).toBe('');
    await choose(dialog, 'ban-expires', 'At a date and time…');
    await dialog.getByTestId('ban-until').fill((await localTime(-3_600_000)).local);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText('The end must be at least a minute from now.').waitFor();
    expect(await dialog.isVisible()).toBe(true);
    expect((await getUser(ids.bob)).banned).toBe(false);
    const until = await localTime(3 * 86_400_000);
    await dialog.getByTestId('ban-until').fill(until.local);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`${email} banned and signed out everywhere`).waitFor();
    const dated = await getUser(ids.bob);
    expect(dated.banned).toBe(true);
    expect(Math.abs(Date.parse(dated.banExpires) - until.at)).toBeLessThan(3000);
    expect(await page.getByTestId('ban-badge').textContent()).toMatch(/^Banned until .*: No reason$/);
    expect((await world.signIn(email, PASSWORD)).body.code).toBe('BANNED_USER');
  });

  it('bulk actions on the selected rows: one confirmation naming the count, then what happened to each user', async () => {
    const [one, two, three] = [people.b1.email, people.b2.email, people.b3.email];
    await openList();
    // Ban two users and the admin: the admin's own ban is refused, the others go through.
    let dialog = await bulk('Ban', [one, two, ADMIN.email]);
    expect(await dialog.getByRole('heading').textContent()).toBe('Ban 3 users?');
    expect(await dialog.getByTestId('bulk-targets').getByRole('listitem').allTextContents()).toEqual(
      expect.arrayContaining([one, two, ADMIN.email]),
    );
    await dialog.getByTestId('ban-reason').fill('Bot network');
    await choose(dialog, 'ban-expires', 'In 7 days');
    await dialog.getByTestId('ban-reason').press('Enter');
    let results = await bulkResults();
    expect(results.title).toBe('Banned 2 of 3 users; 1 failed');
    expect(results.rows).toEqual({
      [one]: 'Banned',
      [two]: 'Banned',
      [ADMIN.email]: 'Not done: You cannot ban yourself',
    });
    await page.getByText('Banned 2 of 3 users; 1 failed').first().waitFor(); // the notification too
    await shot(page, 'users-bulk-results');
    for (const id of [ids.b1, ids.b2])
      expect(await getUser(id)).toMatchObject({ banned: true, banReason: 'Bot network' });
    expect((await getUser(ids.admin)).banned).toBe(false);
    expect((await world.signIn(one, PASSWORD)).body.code).toBe('BANNED_USER');
    await results.close();
    // The refused row stays selected; the banned rows show their badge.
    await page.getByText('1 item selected').waitFor();
    expect(await rowOf(ADMIN.email).getByRole('checkbox').isChecked()).toBe(true);
    expect(await rowOf(one).getByTestId('ban-status').textContent()).toMatch(/^Banned until .*: Bot network$/);
    await shot(page, 'users-list-bulk');
    await rowOf(ADMIN.email).getByRole('checkbox').uncheck();

    dialog = await bulk('Unban', [one, two]);
    expect(await dialog.getByRole('heading').textContent()).toBe('Unban 2 users?');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    results = await bulkResults();
    expect(results.title).toBe('Unbanned 2 users');
    expect(results.rows).toEqual({ [one]: 'Unbanned', [two]: 'Unbanned' });
    await results.close();
    for (const id of [ids.b1, ids.b2]) expect((await getUser(id)).banned).toBe(false);

    const signedIn = await world.signIn(one, PASSWORD);
    expect(signedIn.status).toBe(200);
    dialog = await bulk('Revoke sessions', [one, three]);
    expect(await dialog.getByRole('heading').textContent()).toBe('Revoke every session of 2 users?');
    await page.keyboard.press('Enter'); // a dialog without fields confirms on Enter
    results = await bulkResults();
    expect(results.title).toBe('Revoked the sessions of 2 users');
    await results.close();
    expect(await sessionsOf(ids.b1)).toEqual([]);
    expect((await world.api('/get-session?disableCookieCache=true', { cookie: signedIn.cookie })).body).toBeNull();

    dialog = await bulk('Remove', [two, three]);
    expect(await dialog.getByRole('heading').textContent()).toBe('Remove 2 users for good?');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    results = await bulkResults();
    expect(results.title).toBe('Removed 2 users');
    expect(results.rows).toEqual({ [two]: 'Removed', [three]: 'Removed' });
    await results.close();
    for (const id of [ids.b2, ids.b3]) expect((await api(`/admin/get-user?id=${id}`)).status).toBe(404);
    await expect.poll(() => rowOf(two).count()).toBe(0);
    expect(await page.getByRole('checkbox', { checked: true }).count()).toBe(0); // nothing refused: nothing kept
  }, 60_000);

  it('impersonation: the banner says whom and until when and links to the product; Stop returns to the user page', async () => {
    await openUser(ids.sam);
    const dialog = await confirmAction(page, 'Impersonate');
    expect(await dialog.textContent()).toContain(people.sam.email);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    const banner = page.getByTestId('impersonation-banner');
    await banner.waitFor();
    const now = await world.api('/get-session?disableCookieCache=true', { cookie: await cookieOf(page) });
    expect(now.body.user.id).toBe(ids.sam);
    expect(now.body.session.impersonatedBy).toBe(ids.admin);
    expect(await banner.textContent()).toContain(
      `Impersonating ${people.sam.name} (${people.sam.email}) until ${await badgeTime(now.body.session.expiresAt)}`,
    );
    expect(await banner.getByRole('link', { name: 'Open the product' }).getAttribute('href')).toBe(PRODUCT_URL);
    await shot(page, 'impersonation-banner');

    await banner.getByRole('button', { name: 'Stop impersonating' }).click();
    await expect.poll(() => page.url()).toContain(`#/users/${ids.sam}/show`);
    await page.getByRole('button', { name: 'Set role' }).waitFor();
    expect(await page.getByTestId('impersonation-banner').count()).toBe(0);
    const back = await world.api('/get-session?disableCookieCache=true', { cookie: await cookieOf(page) });
    expect(back.body.user.id).toBe(ids.admin);
    expect(back.body.session.impersonatedBy).toBeNull();
  });

  it('words: the sign-in form asks for the email; a destructive action names its target, Enter confirms, and the notification says what happened', async () => {
    const p = await world.newPage();
    await p.goto(`${world.origin}/#/login`);
    await p.getByLabel(/^Email/).waitFor();
    expect(await p.getByLabel(/^Username/).count()).toBe(0);
    expect(await p.locator('body').textContent()).not.toMatch(/user ?name/i);
    await p.context().close();

    const { email } = people.rita;
    await openUser(ids.rita);
    const dialog = await confirmAction(page, 'Remove');
    expect(await dialog.getByRole('heading').textContent()).toBe(`Remove ${email}`);
    expect(await dialog.textContent()).toContain(`Remove ${email} for good?`);
    await page.keyboard.press('Enter');
    await page.getByText(`${email} removed`, { exact: true }).waitFor();
    await expect.poll(() => page.url()).toMatch(/#\/users(\?|$)/); // back to the list
    expect((await api(`/admin/get-user?id=${ids.rita}`)).status).toBe(404);
  });

  it('at 400 px the users list and a user page fit: no button overlaps another or leaves the window, nothing off-screen', async () => {
    const p = await world.newPage({ width: 400, height: 860 });
    await signInAsAdmin(p, world.origin);
    const fits = async (what: string) => {
      await settled(p);
      expect(await buttonProblems(p), what).toEqual([]);
      expect(await offscreenProblems(p), what).toEqual([]);
      expect(
        await p.evaluate(() => document.documentElement.scrollWidth - window.innerWidth),
        what,
      ).toBeLessThanOrEqual(0);
    };
    await p.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
    await p.getByText(people.bob.email).first().waitFor();
    await p.getByTestId('ban-status').filter({ hasText: 'Banned until' }).first().waitFor(); // Bob's badge
    await fits('users list');
    await shot(p, 'users-list-banned-narrow');

    // Bob: banned (the badge), email not verified (both mail buttons), every action.
    await openUser(ids.bob, '', p);
    await p.getByTestId('ban-badge').waitFor();
    await p.getByRole('button', { name: 'Send verification email' }).waitFor();
    await fits('user page');
    await shot(p, 'user-banned-narrow');
    // Sam's sessions: a phone's, still there.
    await openUser(ids.sam, 'sessions', p);
    await p.getByTestId('sessions').getByText('Apple iPhone · iOS 17.1').waitFor();
    await fits('sessions tab');
    await shot(p, 'user-sessions-narrow');
    await p.context().close();
  });

  it('has no serious or critical accessibility problem (axe-core) on the users list with a selection and a user page with its tabs and ban dialog, wide and at 400 px', async () => {
    const problems: string[] = [];
    for (const width of [1280, 400]) {
      const p = await world.newPage({ width, height: 860 });
      await signInAsAdmin(p, world.origin);
      const check = async (what: string) => {
        await settled(p);
        problems.push(...(await axeProblems(p)).map((problem) => `${width}px ${what}: ${problem}`));
      };
      await p.goto(`${world.origin}/#/users?filter=%7B%7D&displayedFilters=%7B%7D`);
      await p.getByText(people.bob.email).first().waitFor();
      await check('users list');
      if (width > 600) {
        await p.getByRole('row').filter({ hasText: people.sam.email }).getByRole('checkbox').check();
        await p.getByText('1 item selected').waitFor();
        await check('users list with a selection');
      }
      await openUser(ids.bob, '', p);
      await p.getByTestId('ban-badge').waitFor();
      await check('banned user profile');
      await openUser(ids.sam, 'sessions', p);
      await p.getByTestId('sessions').waitFor();
      await check('sessions tab');
      await p.getByRole('button', { name: 'Ban', exact: true }).click();
      const dialog = p.getByRole('dialog');
      await dialog.getByTestId('ban-expires').click();
      await p.getByRole('option', { name: 'At a date and time…' }).click();
      await dialog.getByTestId('ban-until').waitFor();
      await check('ban dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'hidden' });
      await p.context().close();
    }
    expect(problems).toEqual([]);
  });

  it('no page error and no request left the machine', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.blocked).toEqual([]);
    expect(world.consoleErrors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });
});
