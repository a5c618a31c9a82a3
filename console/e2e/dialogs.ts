import type { Locator, Page } from 'playwright-core';

/** The console's dialogs as a person uses them: open one from a button, pick in a choice, cancel. */

/** Clicks the button named `button` (in `within`: the page, or a row or toolbar of it) and answers the dialog it opens. */
export async function confirmAction(within: Page | Locator, button: string): Promise<Locator> {
  const page = 'goto' in within ? within : within.page();
  await within.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.waitFor();
  return dialog;
}

/** Cancel (or the closing button named), and wait until the dialog has gone (its closing transition too). */
export async function cancel(dialog: Locator, button = 'Cancel'): Promise<void> {
  await dialog.getByRole('button', { name: button }).click();
  await dialog.waitFor({ state: 'hidden' });
}

/** In a dialog's choice: opens its list and picks an option. */
export async function choose(dialog: Locator, testId: string, option: string): Promise<void> {
  const page = dialog.page();
  await dialog.getByTestId(testId).click();
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await page.getByRole('listbox').waitFor({ state: 'hidden' });
}

/** What a choice shows. */
export const shownChoice = async (dialog: Locator, testId: string): Promise<string> =>
  ((await dialog.getByTestId(testId).textContent()) ?? '').replace(/\u200b/g, '').trim();
