/**
 * The customer-service chat: logged in, the button fetches the
 * chat's signed address (kept 86,000 s per login) and goes there, and a refusal shows the server's
 * message; logged out, it asks first (咨询加速问题需要先登录。) and offers
 * login, which comes back here.
 */
import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
import { LoginLink, NoticeLine } from '@/components/island.tsx';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { browserEnvironment } from './environment.ts';
import { createCustomerService } from './service-store.ts';

interface Props {
  strings: Strings<KeysUnder<'service' | FailureMessageKey>>;
  locale: LocaleCode;
}

export default function CustomerService({ strings, locale }: Props) {
  const t = translator(strings);
  const [service] = useState(() => createCustomerService(browserEnvironment));
  const busy = useStore(service.$busy);
  const notice = useStore(service.$notice);
  const dialog = useRef<HTMLDialogElement>(null);

  async function open() {
    if ((await service.open()) === 'needsLogin') dialog.current?.showModal();
  }

  return (
    <div className="card">
      <button type="button" className="button" disabled={busy} onClick={() => void open()} data-customer-service>
        {t('service.chat')}
      </button>
      <NoticeLine notice={notice} t={t} />
      <dialog ref={dialog} className="confirm-dialog" aria-labelledby="service-login-needed">
        <p id="service-login-needed">{t('service.needsLogin')}</p>
        <div className="form-actions">
          <LoginLink locale={locale} text={t('service.goLogin')} />
          <button type="button" className="button button-secondary" onClick={() => dialog.current?.close()}>
            {t('service.cancel')}
          </button>
        </div>
      </dialog>
    </div>
  );
}
