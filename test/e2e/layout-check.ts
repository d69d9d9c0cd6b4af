/**
 * Layout problems on the page as drawn, for the locale tests: text that does not fit its button, chip, label or
 * heading (clipped, or running out of its box), an element running out of its card, and controls drawn on top of each
 * other. Text cut on purpose (an ellipsis on a long file name) and content inside a box that scrolls are fine.
 */
import type { Page } from 'playwright-core';

export async function layoutProblems(page: Page, rootSelector: string): Promise<string[]> {
  return page.evaluate((selector) => {
    const out: string[] = [];
    const roots = [...document.querySelectorAll<HTMLElement>(selector)];
    // Drawn on screen: not hidden, and not inside a closed <details> (whose content keeps a layout box in Chromium).
    const shown = (el: Element): boolean => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && el.checkVisibility({ visibilityProperty: true, contentVisibilityAuto: true }) && (el as HTMLElement).offsetParent !== null;
    };
    const name = (el: Element): string => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60)}"`;
    /** Inside a box that scrolls sideways (a wide table in its card): running past its edge is by design. */
    const inScroller = (el: Element): boolean => {
      for (let p = el.parentElement; p; p = p.parentElement) {
        const s = getComputedStyle(p);
        if ((s.overflowX === 'auto' || s.overflowX === 'scroll') && p.scrollWidth > p.clientWidth) return true;
      }
      return false;
    };
    for (const root of roots) {
      const texts = [...root.querySelectorAll('button, label, th, h1, h2, h3, legend, summary, dt, .chip, [role="tab"], [role="status"]')].filter(shown);
      for (const el of texts) {
        const style = getComputedStyle(el);
        if (style.textOverflow === 'ellipsis' || inScroller(el)) continue;
        const box = el.getBoundingClientRect();
        if (el.scrollWidth > el.clientWidth + 1 && style.overflowX !== 'visible') out.push(`clipped: ${name(el)}`);
        // The element's own text (not its children's controls) stays inside its box.
        const range = document.createRange();
        for (const node of el.childNodes) {
          if (node.nodeType !== Node.TEXT_NODE || !node.textContent?.trim()) continue;
          range.selectNodeContents(node);
          const text = range.getBoundingClientRect();
          if (text.right > box.right + 1 || text.left < box.left - 1) out.push(`text outside its box: ${name(el)}`);
        }
        const card = el.closest('.card, dialog, nav, main');
        if (card && card !== el) {
          const c = card.getBoundingClientRect();
          if (box.right > c.right + 1 || box.left < c.left - 1) out.push(`outside its ${card.tagName.toLowerCase()}${card.classList.contains('card') ? '.card' : ''}: ${name(el)}`);
        }
      }
      const controls = [...root.querySelectorAll('button, input, select, textarea, [role="tab"], a[href]')].filter(shown).filter((el) => !inScroller(el));
      for (let i = 0; i < controls.length; i++) {
        for (let j = i + 1; j < controls.length; j++) {
          const a = controls[i]!;
          const b = controls[j]!;
          if (a.contains(b) || b.contains(a)) continue;
          const r = a.getBoundingClientRect();
          const q = b.getBoundingClientRect();
          const w = Math.min(r.right, q.right) - Math.max(r.left, q.left);
          const h = Math.min(r.bottom, q.bottom) - Math.max(r.top, q.top);
          if (w > 1 && h > 1) out.push(`overlap: ${name(a)} and ${name(b)}`);
        }
      }
    }
    return out;
  }, rootSelector);
}
