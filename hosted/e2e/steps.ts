import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterEach, expect } from 'vitest';
import { axeProblems, buttonProblems, offscreenProblems } from '../../e2e/page-checks';
import type { World } from './harness';

/** Where the browser tests write their pictures (`make screenshots` copies the named ones to e2e/screenshots). */
export const SHOTS = join(import.meta.dirname, 'output');

/** A full-page picture of `p` named `name`. */
export const shot = (p: Page, name: string) =>
  p.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true, animations: 'disabled' });

/**
 * The steps a test file of the pages shares, over its world (read when called, as it starts in `beforeAll`):
 * `newPage` keeps each page so a failed test leaves its picture (`failed-<test>`); `checkPage` takes the picture and
 * asserts no serious or critical axe finding, nothing off-screen, no overlapping button and no script or CSP error;
 * `expectRefusals` takes Chromium's own log lines of refused calls, which a test that provokes them expects.
 */
export function browserSteps(world: () => World) {
  const open: Page[] = [];
  afterEach(async (ctx) => {
    if (ctx.task.result?.state === 'fail')
      for (const p of open.splice(0).filter((p) => !p.isClosed()))
        await shot(p, `failed-${ctx.task.name.slice(0, 40).replace(/\W+/g, '-')}`).catch(() => {});
    open.length = 0;
    // A failed test's expected refusals must not fail the next one's page checks.
    world().consoleErrors.splice(0);
    world().pageErrors.splice(0);
  });
  return {
    async newPage(...args: Parameters<World['newPage']>): Promise<Page> {
      const page = await world().newPage(...args);
      open.push(page);
      return page;
    },
    async checkPage(page: Page, what: string): Promise<void> {
      await shot(page, what.replace(/\W+/g, '-'));
      expect([what, await axeProblems(page)]).toEqual([what, []]);
      expect([what, await offscreenProblems(page)]).toEqual([what, []]);
      expect([what, await buttonProblems(page)]).toEqual([what, []]);
      expect([what, world().pageErrors, world().consoleErrors]).toEqual([what, [], []]);
    },
    expectRefusals(status: string): void {
      const lines = world().consoleErrors.splice(0);
      expect(lines.length).toBeGreaterThan(0);
      for (const line of lines)
        expect(line).toBe(`Failed to load resource: the server responded with a status of ${status}`);
    },
  };
}
