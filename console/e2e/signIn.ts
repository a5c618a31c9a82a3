import type { Page } from 'playwright-core';
import { ADMIN } from './harness';

/** Signing in to the console as a person does: on its form, which asks for the email (never a user name). */

/** Fills the open sign-in form and presses Sign in. */
export async function signInOnForm(p: Page, email: string, password: string): Promise<void> {
  await p.getByLabel(/^Email/).fill(email); // "Email *": a required field
  await p.getByLabel(/^Password/).fill(password);
  await p.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the console's sign-in page at `origin` and signs in there. */
export async function signInInBrowser(p: Page, origin: string, email: string, password: string): Promise<void> {
  await p.goto(`${origin}/#/login`);
  await signInOnForm(p, email, password);
}

/** Signs in as the harness's admin and waits until the console greets them. */
export async function signInAsAdmin(p: Page, origin: string): Promise<void> {
  await signInInBrowser(p, origin, ADMIN.email, ADMIN.password);
  await p.getByText(`Signed in as ${ADMIN.name}`).waitFor();
}
