import { atom } from 'nanostores';

/** Theme modes of spec §1: auto follows the system, dark and light are fixed. */
export const themeModes = ['auto', 'dark', 'light'] as const;
export type ThemeMode = (typeof themeModes)[number];

export const themeStorageKey = 'beacon.theme';
export const darkClass = 'body-warp-dark';
export const themeStyleId = 'theme-style';

/**
 * A stored or passed-in value as a theme mode; anything unknown means auto.
 * Self-contained: it also runs in the inline script before first paint.
 */
export function parseThemeMode(value: string | null | undefined): ThemeMode {
  return value === 'dark' || value === 'light' ? value : 'auto';
}

/** Whether a mode shows dark, given the system's `prefers-color-scheme: dark`. Self-contained. */
export function isDarkMode(mode: ThemeMode, systemDark: boolean): boolean {
  return mode === 'dark' || (mode === 'auto' && systemDark);
}

/**
 * Puts a theme on the document exactly as spec §1 says: dark sets the class on
 * html and body and adds the theme style element (which switches native
 * controls and scrollbars to dark); light clears the classes and removes it.
 * Self-contained so it can also run as the inline script before first paint.
 */
export function applyTheme(doc: Document, dark: boolean, darkClassName: string, styleId: string): void {
  for (const el of [doc.documentElement, doc.body]) if (el) el.classList.toggle(darkClassName, dark);
  const existing = doc.getElementById(styleId);
  if (dark && !existing) {
    const style = doc.createElement('style');
    style.id = styleId;
    style.textContent = ':root{color-scheme:dark}';
    doc.head.appendChild(style);
  } else if (!dark && existing) {
    existing.remove();
  }
}

function readStoredMode(): ThemeMode {
  try {
    return parseThemeMode(globalThis.localStorage?.getItem(themeStorageKey));
  } catch {
    return 'auto';
  }
}

/** The visitor's chosen mode (stored under one key). */
export const $themeMode = atom<ThemeMode>(readStoredMode());

/** Stores a mode and shows it at once. */
export function setThemeMode(mode: ThemeMode): void {
  try {
    localStorage.setItem(themeStorageKey, mode);
  } catch {
    // Without storage the choice still applies to this page.
  }
  $themeMode.set(mode);
}

/**
 * Keeps the document in step with the chosen mode and, in auto, with the
 * system preference as it changes. Returns a function that stops following.
 */
export function followTheme(win: Window): () => void {
  const query = win.matchMedia('(prefers-color-scheme: dark)');
  const render = () => applyTheme(win.document, isDarkMode($themeMode.get(), query.matches), darkClass, themeStyleId);
  query.addEventListener('change', render);
  const unsubscribe = $themeMode.listen(render);
  return () => {
    query.removeEventListener('change', render);
    unsubscribe();
  };
}
