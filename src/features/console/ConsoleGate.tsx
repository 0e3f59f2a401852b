/**
 * The way into the console, around every console area: the customer login,
 * then the authenticator (set up once, after a code to the operator's own
 * phone, with recovery codes shown once), then the area itself. It also puts
 * the shell's live part (ConsoleShell: the role's areas, who, sign-out) into
 * the layout's side column, and the warning before the idle end. A sign-in
 * locked by wrong codes says until when.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type ComponentType, type FormEvent, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { LoginLink, Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Translate, type UiKey } from '@/i18n/strings.ts';
import { sayFormMessages } from '@/lib/form-messages.ts';
import { ConsoleShell } from './ConsoleShell.tsx';
import { browserConsole } from './environment.ts';
import { IdleWarning } from './IdleWarning.tsx';
import type { ConsoleStrings } from './strings.ts';

interface Props {
  t: Translate<UiKey>;
  locale: LocaleCode;
  children: ReactNode;
}

/** The code field and its button (and `more` beside it): an authenticator's six digits, a code sent by message, or (when signing in) a recovery code. */
function CodeForm({
  t,
  label,
  hint,
  submit,
  recovery,
  more,
}: {
  t: Translate<UiKey>;
  label: string;
  hint: string;
  submit: (code: string) => Promise<void>;
  recovery: boolean;
  more?: ReactNode;
}) {
  const [code, setCode] = useState('');
  const busy = useStore(browserConsole.$busy);
  const send = (event: FormEvent) => {
    event.preventDefault();
    void submit(code);
  };
  return (
    <form className="form" onSubmit={send}>
      <label>
        {label}
        <input
          name="code"
          value={code}
          onChange={(event) => setCode(event.currentTarget.value)}
          inputMode={recovery ? 'text' : 'numeric'}
          autoComplete="one-time-code"
          required
          maxLength={30}
        />
        <span className="hint">{hint}</span>
      </label>
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {t('console.signIn.submit')}
        </button>
        {more}
      </div>
    </form>
  );
}

export function ConsoleGate({ t, locale, children }: Props) {
  const step = useStore(browserConsole.$step);
  const notice = useStore(browserConsole.$notice);
  const busy = useStore(browserConsole.$busy);
  useEffect(() => void browserConsole.check(), []);
  // The layout's place for the shell's live part (Console.astro).
  const [shell] = useState(() => document.querySelector<HTMLElement>('[data-console-shell]'));
  // Every console form's required and patterned fields say the generic form messages, in the page's language.
  const area = useRef<HTMLDivElement>(null);
  useEffect(() => sayFormMessages(area.current!, t), [t]);

  const body = (() => {
    switch (step.step) {
      case 'checking':
        return <Loading text={t('common.loading')} />;
      case 'login':
        return (
          <section className="card">
            <p>{t('console.signIn.loginFirst')}</p>
            <LoginLink locale={locale} text={t('console.signIn.login')} />
          </section>
        );
      case 'noRole':
        return <p className="notice notice-warn">{t('console.signIn.noRole')}</p>;
      case 'locked':
        return (
          <section className="card" aria-labelledby="console-locked" data-console-locked>
            <h2 id="console-locked">{t('console.locked.title')}</h2>
            <p className="notice notice-warn">{t('console.locked.until', { time: formatDateTime(new Date(step.until).toISOString(), locale) })}</p>
            <button type="button" className="button button-secondary" onClick={() => void browserConsole.check()}>
              {t('console.locked.retry')}
            </button>
          </section>
        );
      case 'noContact':
        return (
          <section className="card" aria-labelledby="console-enrol">
            <h2 id="console-enrol">{t('console.enrol.title')}</h2>
            <p className="notice notice-warn">{t('console.enrol.noContact')}</p>
            <a className="button" href={localizePath(locale, '/account/center/bind')}>
              {t('console.enrol.addPhone')}
            </a>
          </section>
        );
      case 'enrolSend':
        return (
          <section className="card" aria-labelledby="console-enrol">
            <h2 id="console-enrol">{t('console.enrol.title')}</h2>
            <p>{t('console.enrol.sendIntro', { to: step.to.To })}</p>
            <button type="button" className="button" disabled={busy} onClick={() => void browserConsole.sendEnrolCode()}>
              {t('console.enrol.send')}
            </button>
          </section>
        );
      case 'enrolCode':
        return (
          <section className="card" aria-labelledby="console-enrol">
            <h2 id="console-enrol">{t('console.enrol.title')}</h2>
            <CodeForm
              t={t}
              label={t('console.enrol.ownCode')}
              hint={t('console.enrol.sentTo', { to: step.to.To })}
              submit={browserConsole.enrol}
              recovery={false}
              more={
                <button type="button" className="button button-secondary" disabled={busy} onClick={() => void browserConsole.sendEnrolCode()}>
                  {t('console.enrol.sendAgain')}
                </button>
              }
            />
          </section>
        );
      case 'enrol':
        return (
          <section className="card" aria-labelledby="console-enrol">
            <h2 id="console-enrol">{t('console.enrol.title')}</h2>
            <p>{t('console.enrol.scan')}</p>
            <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(step.qrSvg)}`} alt={t('console.enrol.qrLabel')} width={200} height={200} />
            <p>
              {t('console.enrol.typeKey')} <code data-totp-secret>{step.secret.match(/.{1,4}/g)!.join(' ')}</code>
            </p>
            <CodeForm t={t} label={t('console.enrol.code')} hint={t('console.enrol.codeHint')} submit={browserConsole.confirmEnrolment} recovery={false} />
          </section>
        );
      case 'recoveryCodes':
        return (
          <section className="card" aria-labelledby="console-recovery">
            <h2 id="console-recovery">{t('console.recovery.title')}</h2>
            <p className="notice notice-warn">{t('console.recovery.once')}</p>
            <ol className="console-codes" data-recovery-codes>
              {step.codes.map((code) => (
                <li key={code}>
                  <code>{code}</code>
                </li>
              ))}
            </ol>
            <button type="button" className="button" onClick={browserConsole.recoveryCodesKept}>
              {t('console.recovery.kept')}
            </button>
          </section>
        );
      case 'signIn':
        return (
          <section className="card" aria-labelledby="console-sign-in">
            <h2 id="console-sign-in">{t('console.signIn.title')}</h2>
            <CodeForm t={t} label={t('console.signIn.code')} hint={t('console.signIn.codeHint')} submit={browserConsole.signIn} recovery />
          </section>
        );
      case 'ready':
        return children;
    }
  })();

  return (
    <div className="console-area" ref={area}>
      {body}
      <NoticeLine notice={notice} t={t} />
      {shell && createPortal(<ConsoleShell t={t} locale={locale} />, shell)}
      <IdleWarning t={t} />
    </div>
  );
}

/** What a console area is given: the page's words (and the translate function over them) and language. */
export interface AreaProps {
  t: Translate<UiKey>;
  strings: ConsoleStrings;
  locale: LocaleCode;
}

/** A console area as its page's island: behind the sign-in, shown once the console session is open. */
export function consoleIsland(Area: ComponentType<AreaProps>) {
  return function ConsoleIsland({ strings, locale }: { strings: ConsoleStrings; locale: LocaleCode }) {
    const t = translator(strings) as Translate<UiKey>;
    const step = useStore(browserConsole.$step);
    return (
      <ConsoleGate t={t} locale={locale}>
        {step.step === 'ready' && <Area t={t} strings={strings} locale={locale} />}
      </ConsoleGate>
    );
  };
}
