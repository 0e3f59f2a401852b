/**
 * The linked-accounts island: the phone number (changed with the account's
 * code and one to the new number, or bound with the new one's alone when the
 * account has neither phone nor e-mail), the e-mail address (its link sent
 * once the account's code, and with a phone the current address's code, prove
 * the change; bound when the link is opened), and the quick-login identities,
 * each of which can be unlinked unless it is the last way in.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import ProofOfWork from '@/components/ProofOfWork.tsx';
import { providerName, quickLoginProviders, type ProviderIcons } from '@/lib/quick-login-providers.ts';
import { bindEnvironment } from './bind-environment.ts';
import { createBinding } from './bind-store.ts';
import { CodeField, useFields } from './island.tsx';
import { contactOn, ownChannel } from './own-code.ts';
import './AccountBind.css';

interface Props {
  strings: Strings<
    KeysUnder<
      | 'account.bind'
      | 'account.code'
      | 'login.external'
      | 'login.code'
      | 'login.codePlaceholder'
      | 'login.sendCode'
      | 'login.resendIn'
      | FailureMessageKey
      | 'messages.smsSent'
      | 'common.loading'
      | 'proofOfWork'
    >
  >;
  /** Where the "check your inbox" screen is, in this page's language. */
  emailSentPath: string;
  /** The quick-login providers' marks, made by the page. */
  icons: ProviderIcons;
}

export default function AccountBind({ strings, emailSentPath, icons }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createBinding(bindEnvironment, { emailSentPath }));
  const user = useStore(store.$user);
  const offered = useStore(store.$offered);
  const challenge = useStore(store.challenge.$challenge);
  const phone = { busy: useStore(store.phone.$busy), notice: useStore(store.phone.$notice) };
  const email = { busy: useStore(store.email.$busy), notice: useStore(store.email.$notice) };
  const identities = { busy: useStore(store.identities.$busy), notice: useStore(store.identities.$notice) };
  const { field } = useFields(store.$form);
  useEffect(() => store.load(), []);
  if (!user) return <Loading text={t('common.loading')} />;

  function changePhone(event: SubmitEvent) {
    event.preventDefault();
    void store.changePhone();
  }

  function bindEmail(event: SubmitEvent) {
    event.preventDefault();
    void store.bindEmail();
  }

  /** Where the account's code goes (the phone, else the e-mail), how its field is named, and the button that sends it. */
  const channel = ownChannel(user);
  const ownLabel = channel === 'sms' ? t('account.bind.oldCode') : t('account.bind.emailCode');
  const sendTo = (to: 'sms' | 'email') => t('account.code.sendTo', { contact: contactOn(user, to) });
  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="phone-heading">
        <h2 id="phone-heading">{t('account.bind.phone')}</h2>
        <p data-current-phone>{user.Phone ?? <span className="muted">{t('account.bind.noPhone')}</span>}</p>
        <form className="form" onSubmit={changePhone} noValidate>
          {channel && <CodeField label={ownLabel} sendLabel={sendTo(channel)} send={store.sendOldCode} busy={phone.busy} input={field('oldCode')} t={t} />}
          <label>
            {t('account.bind.newPhone')}
            <input {...field('phone')} type="tel" inputMode="tel" autoComplete="tel" />
          </label>
          <CodeField label={t('account.bind.newCode')} sendLabel={t('login.sendCode')} send={store.sendNewCode} busy={phone.busy} input={field('code')} t={t} />
          {challenge && <ProofOfWork challenge={challenge} t={t} onSolved={store.challenge.solved} />}
          <div className="form-actions">
            <button type="submit" className="button" disabled={phone.busy}>
              {user.Phone ? t('account.bind.changePhone') : t('account.bind.bindPhone')}
            </button>
          </div>
        </form>
        <NoticeLine notice={phone.notice} t={t} />
      </section>

      <section className="card" aria-labelledby="email-heading">
        <h2 id="email-heading">{t('account.bind.email')}</h2>
        <p data-current-email>{user.Email ?? <span className="muted">{t('account.bind.noEmail')}</span>}</p>
        <form className="form" onSubmit={bindEmail} noValidate>
          <label>
            {t('account.bind.newEmail')}
            <input {...field('email')} type="email" autoComplete="email" />
            <span className="hint">{t('account.bind.emailHint')}</span>
          </label>
          {channel && (
            <CodeField
              label={ownLabel}
              sendLabel={sendTo(channel)}
              send={() => store.sendEmailCode(channel)}
              busy={email.busy}
              input={field('emailCode')}
              t={t}
            />
          )}
          {user.Phone && user.Email && (
            <CodeField
              label={t('account.bind.emailCode')}
              sendLabel={sendTo('email')}
              send={() => store.sendEmailCode('email')}
              busy={email.busy}
              input={field('oldEmailCode')}
              t={t}
            />
          )}
          <div className="form-actions">
            <button type="submit" className="button" disabled={email.busy}>
              {t('account.bind.sendLink')}
            </button>
          </div>
        </form>
        <NoticeLine notice={email.notice} t={t} />
      </section>

      <section className="card" aria-labelledby="identities-heading">
        <h2 id="identities-heading">{t('account.bind.identities')}</h2>
        <p className="muted">{t('account.bind.identitiesIntro')}</p>
        <ul className="item-list">
          {quickLoginProviders.map((provider) => {
            const bound = user.ExternalAccounts.find((account) => account.Provider === provider);
            return (
              <li key={provider} data-provider={provider}>
                <span className="item-main">
                  <strong className="provider-name">
                    <span dangerouslySetInnerHTML={{ __html: icons[provider] }} />
                    {providerName(provider)}
                  </strong>
                  <span className="muted">{bound ? t('account.bind.linkedAs', { name: bound.DisplayName }) : t('account.bind.notLinked')}</span>
                </span>
                {bound ? (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    disabled={identities.busy}
                    onClick={() => void store.unbind(bound.Id, t('account.bind.unbindConfirm', { provider: providerName(provider) }))}
                  >
                    {t('account.bind.unbind')}
                  </button>
                ) : (
                  offered.includes(provider) && (
                    <button type="button" className="button button-small" disabled={identities.busy} onClick={() => void store.link(provider)}>
                      {t('account.bind.link')}
                    </button>
                  )
                )}
              </li>
            );
          })}
        </ul>
        <NoticeLine notice={identities.notice} t={t} />
      </section>
    </div>
  );
}
