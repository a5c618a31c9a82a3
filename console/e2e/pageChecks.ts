import { join } from 'node:path';
import type { Page } from 'playwright-core';

/** The page checks, shared with the hosted pages' browser tests (the repository's e2e/ folder). */
export * from '../../e2e/page-checks';

/** Written by every run; git-ignored. `make screenshots` copies the ones docs/console.md shows to e2e/screenshots/. */
export const SHOTS = join(import.meta.dirname, 'output');

/** A picture for the docs: animations finished (no half-drawn tab indicator or ripple). */
export const shot = (p: Page, name: string) =>
  p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });
