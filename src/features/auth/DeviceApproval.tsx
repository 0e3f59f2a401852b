/**
 * Approving a desktop sign-in (contract/device-login.ts), on the login page
 * of a logged-in visitor who came with `?device=<code>` (scanned or followed
 * from the desktop app), or typed the code: it shows which device asks and
 * from where, and approves or refuses it. It renders the approval's store
 * (device-approval-store.ts).
 */
import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import { NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { placeName } from '@/i18n/places.ts';
import type { Translate } from '@/i18n/strings.ts';
import { createDeviceApproval } from './device-approval-store.ts';
import { deviceApprovalEnvironment } from './environment.ts';
import type { LoginKey } from './login-store.ts';
import './login.css';

interface Props {
  /** The code from the address; empty when the visitor is to type it. */
  code: string;
  name: string;
  locale: LocaleCode;
  t: Translate<LoginKey>;
}

export default function DeviceApproval({ code: given, name, locale, t }: Props) {
  const [store] = useState(() => createDeviceApproval(deviceApprovalEnvironment, { code: given }));
  const code = useStore(store.$code);
  const request = useStore(store.$request);
  const decided = useStore(store.$decided);
  const busy = useStore(store.$busy);
  const notice = useStore(store.$notice);

  const submit = (event: SubmitEvent) => {
    event.preventDefault();
    void store.find();
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
            <button type="button" className="button" disabled={busy} onClick={() => void store.decide(true)}>
              {t('login.device.approve')}
            </button>
            <button type="button" className="button button-secondary" disabled={busy} onClick={() => void store.decide(false)}>
              {t('login.device.refuse')}
            </button>
          </div>
        </>
      )}
      {!request && (
        <form className="form" onSubmit={submit} noValidate>
          <label>
            {t('login.device.codeLabel')}
            <input name="device-code" autoComplete="off" autoCapitalize="characters" value={code} onChange={(e) => store.$code.set(e.target.value)} />
          </label>
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              {t('login.device.find')}
            </button>
          </div>
        </form>
      )}
      <NoticeLine notice={notice} t={t} />
    </section>
  );
}
