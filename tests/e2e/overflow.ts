/**
 * What sticks out of the viewport sideways: the page's own scroll width, and
 * every visible element reaching past either edge, unless an ancestor clips or
 * scrolls it (a code block that scrolls is fine; a page that does is not).
 */
import type { Page } from '@playwright/test';

export interface Overflow {
  /** How far the page scrolls sideways, in CSS pixels. */
  page: number;
  /** The elements that reach past an edge: a short selector and by how much. */
  elements: string[];
}

export function overflowOf(page: Page): Promise<Overflow> {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const contained = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const style = getComputedStyle(a);
        if (style.overflowX !== 'visible' || style.position === 'fixed') return true;
      }
      return false;
    };
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}${el.classList.length ? `.${[...el.classList].join('.')}` : ''}`;
    const elements: string[] = [];
    for (const el of document.body.querySelectorAll('*')) {
      const rect = el.getBoundingClientRect();
      if (!rect.width || !rect.height) continue;
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.position === 'fixed') continue;
      // Visually hidden text and a skip link parked off-screen are meant to be out of view.
      if (el.closest('.visually-hidden, .skip-link')) continue;
      // A box that fits can still hold text that runs out of it (a long word in a heading): its scroll width shows that.
      const contentRight = style.overflowX === 'visible' && style.display !== 'inline' ? rect.left + el.scrollWidth : rect.right;
      const past = Math.max(Math.max(rect.right, contentRight) - width, -rect.left);
      if (past > 1 && !contained(el)) elements.push(`${name(el)} +${Math.round(past)}px`);
    }
    return { page: document.documentElement.scrollWidth - width, elements: elements.slice(0, 5) };
  });
}
