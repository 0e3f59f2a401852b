/**
 * The warning before the console session's idle end: a modal alert with the
 * seconds left and one button that stays signed in (a call the server counts
 * as use; Escape does the same — the operator is plainly there). The store
 * says where the session stands (`idle()`, by its clock); this asks it each
 * second while a session is open. When the time runs out the store sends the
 * page to sign-in with a notice, and focus goes to the page's main part.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState } from 'react';
import type { Translate, UiKey } from '@/i18n/strings.ts';
import { backToMain } from './ConsoleShell.tsx';
import type { IdleState } from './console-store.ts';
import { browserConsole } from './environment.ts';

export function IdleWarning({ t }: { t: Translate<UiKey> }) {
  const session = useStore(browserConsole.$session);
  const [idle, setIdle] = useState<IdleState>({ warning: false });
  const dialog = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    if (!session) return;
    const tick = () => setIdle(browserConsole.idle());
    tick();
    const timer = setInterval(tick, 1000);
    return () => clearInterval(timer);
  }, [session]);

  useEffect(() => {
    const box = dialog.current!;
    if (idle.warning && !box.open) box.showModal();
    if (!idle.warning && box.open) {
      box.close();
      // Timed out: what had focus went with the area.
      if (!browserConsole.$session.get()) backToMain();
    }
  }, [idle.warning]);

  const stay = () => void browserConsole.stay();

  return (
    <dialog
      ref={dialog}
      role="alertdialog"
      className="confirm-dialog"
      aria-labelledby="console-idle-title"
      aria-describedby="console-idle-left"
      onCancel={(event) => {
        event.preventDefault();
        stay();
      }}
      data-idle-warning
    >
      <h2 id="console-idle-title">{t('console.idle.title')}</h2>
      <p id="console-idle-left">{idle.warning && t('console.idle.endsIn', { seconds: idle.secondsLeft })}</p>
      <div className="form-actions">
        <button type="button" className="button" onClick={stay} data-idle-stay>
          {t('console.idle.stay')}
        </button>
      </div>
    </dialog>
  );
}
