/**
 * What every account-centre island does the same way: calls made with the
 * logged-in user's token, a busy state while one runs, its outcome as one
 * notice in the page's language (the server's own words for a refusal), form
 * fields, and the code field with its send button and resend countdown. A 401
 * needs nothing here: the page's one handler (`requireLogin`) takes the user to
 * login.
 */
import { useEffect, useRef, useState } from 'react';
import type { ApiRoute, ResponseOf } from '#contract/api.ts';
import { verification } from '#contract/identity.ts';
import type { Translate, UiKey } from '@/i18n/strings.ts';
import { call, type CallOptions } from '@/lib/api/client.ts';
import { failureMessage } from '@/lib/api/errors.ts';
import { providerName } from '@/lib/quick-login-providers.ts';
import { takeLinkOutcome } from '@/stores/quick-login.ts';
import { $authToken } from '@/stores/session.ts';

/** Calls a route as the logged-in user. */
export function authCall<R extends ApiRoute>(route: R, options: Omit<CallOptions<R>, 'token'> = {}): Promise<ResponseOf<R>> {
  return call(route, { ...options, token: $authToken.get()?.AccessToken });
}

export interface Notice {
  kind: 'ok' | 'error';
  text: string;
}

/** The `api.*` keys an island must be handed for failure messages. */
export type FailureKey = Extract<UiKey, `api.${string}`>;

/**
 * Runs one action at a time: `busy` while it runs, then a notice — `done` on
 * success, the failure's message otherwise. Resolves to the action's result,
 * or undefined when it failed.
 */
export function useAction(t: Translate<FailureKey>) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<Notice | null>(null);
  async function run<T>(action: () => Promise<T>, done?: string): Promise<T | undefined> {
    setBusy(true);
    setNotice(null);
    try {
      const result = await action();
      if (done) setNotice({ kind: 'ok', text: done });
      return result;
    } catch (error) {
      const shown = failureMessage(error);
      setNotice({ kind: 'error', text: 'text' in shown ? shown.text : t(shown.key) });
      return undefined;
    } finally {
      setBusy(false);
    }
  }
  return { busy, notice, setNotice, run };
}

/** Back from linking a quick-login identity (the login page sends the outcome here): says how it went, once. */
export function useLinkOutcome(setNotice: (notice: Notice) => void, t: Translate<Extract<UiKey, `login.external.${string}`> | 'account.bind.linked'>): void {
  useEffect(() => {
    const outcome = takeLinkOutcome();
    if (!outcome) return;
    const provider = providerName(outcome.provider);
    setNotice(
      outcome.error
        ? { kind: 'error', text: t(`login.external.${outcome.error}`, { provider }) }
        : { kind: 'ok', text: t('account.bind.linked', { provider }) },
    );
  }, []);
}

export function NoticeLine({ notice }: { notice: Notice | null }) {
  if (!notice) return null;
  return (
    <p className={`notice ${notice.kind === 'ok' ? 'notice-ok' : 'notice-warn'}`} role={notice.kind === 'ok' ? 'status' : 'alert'}>
      {notice.text}
    </p>
  );
}

/** The island's placeholder until the user is known. */
export function Loading({ text }: { text: string }) {
  return (
    <p className="muted" role="status">
      {text}
    </p>
  );
}

/** A form's text values, and the props that bind one input to one of them. */
export function useFields<F extends Record<string, string>>(initial: F) {
  const [form, setForm] = useState(initial);
  const field = (name: keyof F & string) => ({
    name,
    value: form[name],
    onInput: (event: { currentTarget: HTMLInputElement }) => setForm((current) => ({ ...current, [name]: event.currentTarget.value })),
  });
  return { form, setForm, field };
}

interface CodeFieldProps {
  label: string;
  sendLabel: string;
  /** Sends the code; resolves to undefined when it failed, anything else once it is on its way (the resend wait starts). */
  send: () => Promise<unknown>;
  busy: boolean;
  input: { name: string; value: string; onInput: (event: { currentTarget: HTMLInputElement }) => void };
  t: Translate<'login.codePlaceholder' | 'login.resendIn'>;
}

/** A code input with its send button, which waits out the resend time after each send. */
export function CodeField({ label, sendLabel, send, busy, input, t }: CodeFieldProps) {
  const countdown = useResendCountdown();
  const sendNow = async () => {
    if ((await send()) !== undefined) countdown.start();
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

/** Seconds until a code may be sent again (spec §5, the resend wait of `verification`); `start` begins the wait. */
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
