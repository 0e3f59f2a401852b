import { describe, expect, it } from 'vitest';
import { applyTheme, darkClass, isDarkMode, parseThemeMode, themeStyleId } from '@/stores/theme.ts';

/** Just enough of a document for applyTheme: two class lists, a head and getElementById. */
function fakeDocument() {
  const classes = () => {
    const set = new Set<string>();
    return { set, classList: { toggle: (c: string, on: boolean) => (on ? set.add(c) : set.delete(c)) } };
  };
  const html = classes();
  const body = classes();
  const styles = new Map<string, { id: string; textContent: string; remove: () => void }>();
  const doc = {
    documentElement: html,
    body,
    head: { appendChild: (el: { id: string }) => styles.set(el.id, el as never) },
    getElementById: (id: string) => styles.get(id) ?? null,
    createElement: () => {
      const el = { id: '', textContent: '', remove: () => styles.delete(el.id) };
      return el;
    },
  };
  return { doc: doc as unknown as Document, html: html.set, body: body.set, styles };
}

describe('theme', () => {
  it('parses stored modes, treating anything else as auto', () => {
    expect(parseThemeMode('dark')).toBe('dark');
    expect(parseThemeMode('light')).toBe('light');
    expect(parseThemeMode('purple')).toBe('auto');
    expect(parseThemeMode(null)).toBe('auto');
  });

  it('follows the system only in auto', () => {
    expect(isDarkMode('auto', true)).toBe(true);
    expect(isDarkMode('auto', false)).toBe(false);
    expect(isDarkMode('dark', false)).toBe(true);
    expect(isDarkMode('light', true)).toBe(false);
  });

  it('dark sets body-warp-dark on html and body and adds the theme style element', () => {
    const { doc, html, body, styles } = fakeDocument();
    applyTheme(doc, true, darkClass, themeStyleId);
    expect(darkClass).toBe('body-warp-dark');
    expect(html.has(darkClass)).toBe(true);
    expect(body.has(darkClass)).toBe(true);
    expect(styles.get(themeStyleId)?.textContent).toContain('color-scheme:dark');
  });

  it('light clears the classes and removes the theme style element', () => {
    const { doc, html, body, styles } = fakeDocument();
    applyTheme(doc, true, darkClass, themeStyleId);
    applyTheme(doc, false, darkClass, themeStyleId);
    expect(html.has(darkClass)).toBe(false);
    expect(body.has(darkClass)).toBe(false);
    expect(styles.has(themeStyleId)).toBe(false);
  });

  it('adds the style element only once', () => {
    const { doc, styles } = fakeDocument();
    applyTheme(doc, true, darkClass, themeStyleId);
    applyTheme(doc, true, darkClass, themeStyleId);
    expect(styles.size).toBe(1);
  });
});
