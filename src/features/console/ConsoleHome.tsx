/** The console's first page: the sign-in, then the areas this operator's role opens. */
import { useStore } from '@nanostores/react';
import { roleIncludes } from '#contract/console.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type UiKey } from '@/i18n/strings.ts';
import { consoleAreas } from '@/lib/console-areas.ts';
import { ConsoleGate } from './ConsoleGate.tsx';
import { browserConsole } from './environment.ts';
import type { ConsoleStrings } from './ConsoleCustomers.tsx';
import './console.css';

interface Props {
  strings: ConsoleStrings;
  locale: LocaleCode;
}

export default function ConsoleHome({ strings, locale }: Props) {
  const t = translator(strings) as (key: UiKey, params?: Record<string, string | number>) => string;
  const session = useStore(browserConsole.$session);
  return (
    <ConsoleGate t={t} locale={locale}>
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
    </ConsoleGate>
  );
}
