/**
 * The header's controls, wired by its one script so every page loads one
 * small module for its chrome: the phone menu, the theme control and the
 * remembered language choice. Each works on the markup its component renders.
 */
import { followTheme, parseThemeMode, setThemeMode, themeMode } from '@/stores/theme.ts';

/** The phone menu: one button opens and closes it; Escape closes it and gives focus back. */
export function wireSiteMenu(toggle: HTMLButtonElement, menu: HTMLElement): void {
  const setOpen = (open: boolean) => {
    toggle.setAttribute('aria-expanded', String(open));
    menu.toggleAttribute('data-open', open);
  };
  toggle.addEventListener('click', () => setOpen(toggle.getAttribute('aria-expanded') !== 'true'));
  menu.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape') return;
    setOpen(false);
    toggle.focus();
  });
}

/** Auto / dark / light: shows the stored mode and applies a new one at once. */
export function wireThemeControl(group: HTMLElement): void {
  followTheme(window);
  for (const radio of group.querySelectorAll<HTMLInputElement>('input[name="theme"]')) {
    radio.checked = radio.value === themeMode();
    radio.addEventListener('change', () => setThemeMode(parseThemeMode(radio.value)));
  }
}

/** Choosing a language stores it under the menu's `data-storage-key`, where it wins over the browser's languages on the next visit. */
export function wireLanguageChoice(menu: HTMLElement): void {
  menu.addEventListener('click', (event) => {
    const choice = (event.target as HTMLElement).closest<HTMLAnchorElement>('a[data-locale]');
    if (!choice) return;
    try {
      localStorage.setItem(menu.dataset.storageKey!, choice.dataset.locale!);
    } catch {
      // Without storage the link still opens the chosen language.
    }
  });
}
