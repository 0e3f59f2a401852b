/**
 * What account-centre islands share beyond the common kit
 * (components/island.tsx): the inputs of a store's form, and the code field
 * with its send button and resend countdown.
 */
import { useStore } from '@nanostores/react';
import type { WritableAtom } from 'nanostores';
import { useEffect, useRef, useState } from 'react';
import { verification } from '#contract/identity.ts';
import type { Translate } from '@/i18n/strings.ts';

/** The props that bind one input to one text value of a store's form. */
export function useFields<F extends Record<string, string>>($form: WritableAtom<F>) {
  const form = useStore($form);
  const field = (name: keyof F & string) => ({
    name,
    value: form[name],
    onChange: (event: { currentTarget: HTMLInputElement }) => $form.set({ ...$form.get(), [name]: event.currentTarget.value }),
  });
  return { form, field };
}

interface CodeFieldProps {
  label: string;
  sendLabel: string;
  /** Sends the code (a store's action); resolves to true once it is on its way (the resend wait starts), false when it failed. */
  send: () => Promise<boolean>;
  busy: boolean;
  input: { name: string; value: string; onChange: (event: { currentTarget: HTMLInputElement }) => void };
  t: Translate<'login.codePlaceholder' | 'login.resendIn'>;
}

/** A code input with its send button, which waits out the resend time after each send. */
export function CodeField({ label, sendLabel, send, busy, input, t }: CodeFieldProps) {
  const countdown = useResendCountdown();
  const sendNow = async () => {
    if (await send()) countdown.start();
  };
  return (
    <label>
      {label}
      <span className="input-row">
        <input {...input} inputMode="numeric" autoComplete="one-time-code" placeholder={t('login.codePlaceholder')} />
        <button type="button" className="button button-secondary" disabled={busy || countdown.seconds > 0} onClick={() => void sendNow()}>
          {countdown.seconds > 0 ? t('login.resendIn', { seconds: countdown.seconds }) : sendLabel}
        </button>
      </span>
    </label>
  );
}

/** Seconds until a code may be sent again (the resend wait of `verification`); `start` begins the wait. */
function useResendCountdown(): { seconds: number; start: () => void } {
  const [until, setUntil] = useState(0);
  const [now, setNow] = useState(() => Date.now());
  const timer = useRef<ReturnType<typeof setInterval>>(undefined);
  useEffect(() => () => clearInterval(timer.current), []);
  const start = () => {
    setUntil(Date.now() + verification.resendAfterMs);
    setNow(Date.now());
    clearInterval(timer.current);
    timer.current = setInterval(() => setNow(Date.now()), 1000);
  };
  const seconds = Math.max(0, Math.ceil((until - now) / 1000));
  if (seconds === 0 && timer.current) clearInterval(timer.current);
  return { seconds, start };
}
