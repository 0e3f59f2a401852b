/** The console's first page: the sign-in, then the areas this operator's role opens. */
import { useStore } from '@nanostores/react';
import { roleIncludes } from '#contract/console.ts';
import { localizePath } from '@/i18n/locales.ts';
import type { UiKey } from '@/i18n/strings.ts';
import { consoleAreas } from '@/lib/console-areas.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { browserConsole } from './environment.ts';
import './console.css';

function Areas({ t, locale }: AreaProps) {
  const session = useStore(browserConsole.$session);
  return (
    <ul className="console-sections" data-console-areas>
      {consoleAreas
        .filter((area) => area.path !== '/admin' && session && roleIncludes(session.Role, area.role))
        .map((area) => (
          <li key={area.path} className="card">
            <h2>
              <a href={localizePath(locale, area.path)}>{t(area.key)}</a>
            </h2>
            <p className="muted">{t(`${area.key}Intro` as UiKey)}</p>
          </li>
        ))}
    </ul>
  );
}

export default consoleIsland(Areas);
