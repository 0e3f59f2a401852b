/**
 * The console shell's live part, in the side column the layout
 * (src/layouts/Console.astro) keeps for it: the areas the operator's role
 * opens (the server checks every call again; the menu only spares an operator
 * pages they cannot use), who is signed in with what role, and sign-out.
 * Before sign-in it shows nothing: the sign-in steps are the page. The page's
 * console island renders it (ConsoleGate), so every area has it.
 */
import { useStore } from '@nanostores/react';
import { roleIncludes } from '#contract/console.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import type { Translate, UiKey } from '@/i18n/strings.ts';
import { consoleAreas } from '@/lib/console-areas.ts';
import { browserConsole } from './environment.ts';

/**
 * Once the session is over (signed out, or idle) the menu holds only the controls: the phone's menu closes, and focus
 * goes to the main part, where the sign-in is.
 */
export function backToMain(): void {
  document.querySelector<HTMLButtonElement>('[data-console-menu-toggle][aria-expanded="true"]')?.click();
  document.getElementById('main')?.focus();
}

export function ConsoleShell({ t, locale }: { t: Translate<UiKey>; locale: LocaleCode }) {
  const session = useStore(browserConsole.$session);
  const step = useStore(browserConsole.$step);
  const busy = useStore(browserConsole.$busy);
  if (!session || step.step !== 'ready') return null;
  const here = window.location.pathname.replace(/\/$/, '');
  return (
    <>
      <nav aria-label={t('console.nav.label')}>
        <ul className="console-menu-areas" data-console-menu-areas>
          {consoleAreas
            .filter((area) => roleIncludes(session.Role, area.role))
            .map((area) => {
              const href = localizePath(locale, area.path);
              return (
                <li key={area.path}>
                  <a href={href} aria-current={href.replace(/\/$/, '') === here ? 'page' : undefined}>
                    {t(area.key)}
                  </a>
                </li>
              );
            })}
        </ul>
      </nav>
      <div className="console-who" data-console-who>
        <p>{t('console.signedInAs', { name: session.Nickname, role: t(`console.role.${session.Role}`) })}</p>
        <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void browserConsole.signOut().then(backToMain)}>
          {t('console.signOut')}
        </button>
      </div>
    </>
  );
}
