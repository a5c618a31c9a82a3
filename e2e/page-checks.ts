import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/**
 * Checks a browser scenario runs on the page as it is now (the console's and the hosted pages'): the buttons' boxes
 * (inside the window, none over another, each reachable by a click at its middle), the page's width, and axe-core's
 * serious and critical findings.
 */

/** Every visible button's problems (leaves the window, overlaps another, covered at its middle); empty when none. */
export async function buttonProblems(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const problems: string[] = [];
    const name = (el: Element) => (el.getAttribute('aria-label') || el.textContent || el.tagName).trim().slice(0, 40);
    const buttons = [
      ...document.querySelectorAll<HTMLElement>('button, [role="button"], a.MuiButton-root, summary'),
    ].filter((el) => {
      const r = el.getBoundingClientRect();
      const style = getComputedStyle(el);
      // Not drawn, or put out of sight on purpose until focused (react-admin's "Skip to content" link).
      const offPage = r.bottom + window.scrollY <= 0 || r.right + window.scrollX <= 0;
      return r.width > 0 && r.height > 0 && style.visibility !== 'hidden' && Number(style.opacity) > 0 && !offPage;
    });
    const width = document.documentElement.clientWidth;
    const rects = buttons.map((el) => {
      const r = el.getBoundingClientRect();
      return {
        el,
        left: r.left + window.scrollX,
        right: r.right + window.scrollX,
        top: r.top + window.scrollY,
        bottom: r.bottom + window.scrollY,
      };
    });
    for (const a of rects) {
      if (a.left < -0.5 || a.right > width + 0.5)
        problems.push(`${name(a.el)} leaves the window (${a.left}-${a.right} of ${width})`);
    }
    for (let i = 0; i < rects.length; i++)
      for (let j = i + 1; j < rects.length; j++) {
        const [a, b] = [rects[i], rects[j]];
        if (a.el.contains(b.el) || b.el.contains(a.el)) continue;
        const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
        const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
        if (x > 1 && y > 1) problems.push(`${name(a.el)} overlaps ${name(b.el)}`);
      }
    for (const { el } of rects) {
      if (el.matches(':disabled, .Mui-disabled')) continue; // takes no clicks (pointer-events: none)
      el.scrollIntoView({ block: 'center', inline: 'center' });
      const r = el.getBoundingClientRect();
      const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
      if (!hit || !(el === hit || el.contains(hit)))
        problems.push(`${name(el)} is covered by ${hit?.className || hit?.tagName}`);
    }
    window.scrollTo(0, 0);
    return problems;
  });
}

/**
 * Elements of the page's content (not the app bar or the menu) whose box leaves the window sideways, and how far
 * the page itself scrolls sideways: both empty or zero when nothing is off-screen.
 */
export async function offScreen(p: Page): Promise<{ overflow: number; outside: string[] }> {
  return p.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const content = document.querySelector('#main-content') ?? document.body;
    const outside: string[] = [];
    for (const el of content.querySelectorAll<HTMLElement>('*')) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      // A box inside a scrolling container (a wide table's ScrollX) may extend past the window by design.
      let clipped = false;
      for (let up = el.parentElement; up && up !== content; up = up.parentElement) {
        const overflowX = getComputedStyle(up).overflowX;
        if (overflowX === 'auto' || overflowX === 'scroll' || overflowX === 'hidden') {
          clipped = true;
          break;
        }
      }
      if (clipped) continue;
      if (r.left + window.scrollX < -0.5 || r.right + window.scrollX > width + 0.5)
        outside.push(
          `${el.tagName.toLowerCase()}.${[...el.classList].slice(0, 2).join('.')} ${Math.round(r.left)}-${Math.round(r.right)}`,
        );
    }
    return { overflow: document.documentElement.scrollWidth - window.innerWidth, outside: outside.slice(0, 10) };
  });
}

/**
 * Every visible element lies inside the window's width (nothing off-screen, whether the page scrolls sideways or
 * a box clips it). Tabs that scroll sideways on purpose (with their arrows) are left out, and so is what is put
 * out of sight until focused (react-admin's "Skip to content" link).
 */
export async function offscreenProblems(p: Page): Promise<string[]> {
  return p.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const problems: string[] = [];
    for (const el of document.body.querySelectorAll<HTMLElement>('*')) {
      if (el.closest('[role="tablist"], .MuiTabs-root, [aria-hidden="true"]')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') continue;
      if (r.bottom + window.scrollY <= 0 || r.right + window.scrollX <= 0) continue;
      if (r.left < -0.5 || r.right > width + 0.5) {
        const name = (el.getAttribute('aria-label') || el.textContent || '').trim().slice(0, 40);
        problems.push(
          `${el.tagName.toLowerCase()}.${el.getAttribute('class') ?? ''} "${name}" at ${r.left}-${r.right} of ${width}`,
        );
      }
    }
    return problems;
  });
}

/** Waits until no CSS transition runs (a dialog fading in reads as low contrast to axe; boxes move meanwhile). */
export async function settled(p: Page): Promise<void> {
  await p.waitForFunction(() =>
    document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
  );
}

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's serious and critical findings on the page as it is now, as `rule: target` lines. */
export async function axeProblems(p: Page): Promise<string[]> {
  await settled(p);
  await p.evaluate(AXE);
  return p.evaluate(async () => {
    // biome-ignore lint/suspicious/noExplicitAny: axe-core's global, injected above
    const result = await (window as any).axe.run(document, { resultTypes: ['violations'] });
    return result.violations
      .filter((v: { impact: string }) => v.impact === 'serious' || v.impact === 'critical')
      .flatMap((v: { id: string; nodes: { target: string[] }[] }) =>
        v.nodes.map((n) => `${v.id}: ${n.target.join(' ')}`),
      );
  });
}
