/**
 * Approving a desktop sign-in (contract/device-login.ts), on the login page
 * of a logged-in visitor who came with `?device=<code>` (scanned or followed
 * from the desktop app), or typed the code: it shows which device asks and
 * from where, and approves or refuses it.
 */
import { useEffect, useState, type SubmitEvent } from 'react';
import { deviceCalls, type DeviceRequest } from '#contract/device-login.ts';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { placeName } from '@/i18n/places.ts';
import type { Translate } from '@/i18n/strings.ts';
import { call } from '@/lib/api/client.ts';
import { failureMessage } from '@/lib/api/errors.ts';
import { $authToken } from '@/stores/session.ts';
import type { LoginKey } from './login-store.ts';
import './login.css';

interface Props {
  /** The code from the address; empty when the visitor is to type it. */
  code: string;
  name: string;
  locale: LocaleCode;
  t: Translate<LoginKey>;
}

type Shown = { kind: 'error' | 'ok'; text: string } | null;

export default function DeviceApproval({ code: given, name, locale, t }: Props) {
  const [code, setCode] = useState(given);
  const [request, setRequest] = useState<DeviceRequest | null>(null);
  const [busy, setBusy] = useState(false);
  const [shown, setShown] = useState<Shown>(null);
  const [decided, setDecided] = useState(false);
  const token = () => $authToken.get()?.AccessToken;

  async function run(action: () => Promise<void>) {
    setBusy(true);
    setShown(null);
    try {
      await action();
    } catch (error) {
      const failure = failureMessage(error);
      setShown({ kind: 'error', text: 'text' in failure ? failure.text : t(failure.key) });
    } finally {
      setBusy(false);
    }
  }

  const find = (userCode: string) =>
    run(async () => {
      if (!/^[a-z]{4}-?[a-z]{4}$/i.test(userCode.trim())) {
        setShown({ kind: 'error', text: t('login.device.codeInvalid') });
        return;
      }
      setRequest(await call(deviceCalls.describe, { params: { userCode: userCode.trim() }, token: token() }));
    });

  useEffect(() => {
    if (given) void find(given);
  }, []);

  const decide = (approve: boolean) =>
    run(async () => {
      await call(deviceCalls.decide, { body: { UserCode: request!.UserCode, Approve: approve }, token: token() });
      setDecided(true);
      setShown({ kind: 'ok', text: t(approve ? 'login.device.approved' : 'login.device.refused') });
    });

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    void find(code);
  };

  return (
    <section className="card login-card" aria-labelledby="device-heading" data-device-approval>
      <h2 id="device-heading">{t('login.device.title')}</h2>
      {request && !decided && (
        <>
          <p>{t('login.device.intro', { device: request.Device, name })}</p>
          <p className="muted">{t('login.device.origin', { place: placeName(request.Place, locale, t), time: formatDateTime(request.CreatedAt, locale) })}</p>
          <p className="device-code" aria-label={t('login.device.codeLabel')}>
            {request.UserCode}
          </p>
          <p className="notice notice-warn">{t('login.device.warning')}</p>
          <div className="form-actions">
            <button type="button" className="button" disabled={busy} onClick={() => void decide(true)}>
              {t('login.device.approve')}
            </button>
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => void decide(false)}>
              {t('login.device.refuse')}
            </button>
          </div>
        </>
      )}
      {!request && (
        <form className="form" onSubmit={submit} noValidate>
          <label>
            {t('login.device.codeLabel')}
            <input name="device-code" autoComplete="off" autoCapitalize="characters" value={code} onChange={(e) => setCode(e.target.value)} />
          </label>
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              {t('login.device.find')}
            </button>
          </div>
        </form>
      )}
      {shown && (
        <p className={`notice ${shown.kind === 'ok' ? 'notice-ok' : 'notice-error'}`} role={shown.kind === 'ok' ? 'status' : 'alert'}>
          {shown.text}
        </p>
      )}
    </section>
  );
}
