/** Theme modes: auto follows the system, dark and light are fixed. */
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
 * Puts a theme on the document: dark sets the class on
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

/** The mode this page shows: the stored choice, or the one made on this page when storage is refused. */
let currentMode: ThemeMode | null = null;

/** The visitor's chosen mode (stored under one key). */
export function themeMode(): ThemeMode {
  if (currentMode) return currentMode;
  try {
    return parseThemeMode(globalThis.localStorage?.getItem(themeStorageKey));
  } catch {
    return 'auto';
  }
}

function render(win: Window): void {
  applyTheme(win.document, isDarkMode(themeMode(), win.matchMedia('(prefers-color-scheme: dark)').matches), darkClass, themeStyleId);
}

/** Stores a mode and shows it at once. */
export function setThemeMode(mode: ThemeMode, win: Window = window): void {
  currentMode = mode;
  try {
    localStorage.setItem(themeStorageKey, mode);
  } catch {
    // Without storage the choice still applies to this page.
  }
  render(win);
}

/**
 * Keeps the document in step with the system preference as it changes, for
 * the auto mode. Returns a function that stops following.
 */
export function followTheme(win: Window): () => void {
  const query = win.matchMedia('(prefers-color-scheme: dark)');
  const onChange = () => render(win);
  query.addEventListener('change', onChange);
  return () => query.removeEventListener('change', onChange);
}
