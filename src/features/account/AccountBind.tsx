/**
 * The linked-accounts island: the phone number (changed with a code to the
 * current number and one to the new, or bound with the new one's alone), the
 * e-mail address (bound when the link we e-mail is opened), and the quick-login
 * identities, each of which can be unlinked unless it is the last way in.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { accountCalls, type QuickLoginProvider } from '#contract/account.ts';
import type { LocaleCode } from '#contract/locales.ts';
import { identity } from '#contract/identity.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { quickProviders, startLinking } from '@/stores/quick-login.ts';
import { $user, refreshUser, updateUser } from '@/stores/session.ts';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { CodeField, useFields, useLinkOutcome } from './island.tsx';
import { providerName, quickLoginProviders, type ProviderIcons } from '@/lib/quick-login-providers.ts';
import './AccountBind.css';

interface Props {
  strings: Strings<
    KeysUnder<'account.bind' | 'login.external' | 'login.code' | 'login.codePlaceholder' | 'login.sendCode' | 'login.resendIn' | 'api' | 'common.loading'>
  >;
  /** Where the "check your inbox" screen is, in this page's language. */
  emailSentPath: string;
  /** The quick-login providers' marks, made by the page. */
  icons: ProviderIcons;
}

export default function AccountBind({ strings, emailSentPath, icons }: Props) {
  const t = translator(strings);
  const user = useStore($user);
  const phone = useAction(t);
  const email = useAction(t);
  const identities = useAction(t);
  const { form, setForm, field } = useFields({ oldCode: '', phone: '', code: '', email: '' });
  // The e-mail may have been confirmed in another browser since the user was last read.
  useEffect(() => void refreshUser().catch(() => {}), []);
  // Only the providers this server offers can be linked.
  const [offered, setOffered] = useState<QuickLoginProvider[]>([]);
  useEffect(
    () =>
      void quickProviders().then(
        (providers) => setOffered(providers.map((provider) => provider.Provider)),
        () => {},
      ),
    [],
  );
  useLinkOutcome(identities.setNotice, t);
  if (!user) return <Loading text={t('common.loading')} />;

  const sendOldCode = () => phone.run(() => authCall(accountCalls.sendOwnCode, { body: { Channel: 'sms' } }), t('account.bind.codeSent'));
  const sendNewCode = () => phone.run(() => authCall(identity.sendSmsCode, { body: { Phone: form.phone } }), t('account.bind.codeSent'));

  async function changePhone(event: SubmitEvent) {
    event.preventDefault();
    const body = { Phone: form.phone, Code: form.code, ...(user!.Phone ? { OldCode: form.oldCode } : {}) };
    const updated = await phone.run(() => authCall(accountCalls.changePhone, { body }), t('account.bind.phoneSaved'));
    if (updated) {
      updateUser(updated);
      setForm({ ...form, oldCode: '', phone: '', code: '' });
    }
  }

  async function bindEmail(event: SubmitEvent) {
    event.preventDefault();
    const sent = await email.run(async () => {
      await authCall(accountCalls.bindEmail, { body: { Email: form.email } });
      return true;
    });
    if (sent) location.assign(emailSentPath);
  }

  const link = (provider: QuickLoginProvider) => void identities.run(() => startLinking(provider, document.documentElement.lang as LocaleCode));

  async function unbind(id: number, provider: string) {
    if (!confirm(t('account.bind.unbindConfirm', { provider: providerName(provider) }))) return;
    const updated = await identities.run(() => authCall(identity.unbundleAccount, { params: { id } }), t('account.bind.unbound'));
    if (updated) updateUser(updated);
  }

  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="phone-heading">
        <h2 id="phone-heading">{t('account.bind.phone')}</h2>
        <p data-current-phone>{user.Phone ?? <span className="muted">{t('account.bind.noPhone')}</span>}</p>
        <form className="form" onSubmit={(event) => void changePhone(event)} noValidate>
          {user.Phone && (
            <CodeField
              label={t('account.bind.oldCode')}
              sendLabel={t('account.bind.sendOldCode')}
              send={sendOldCode}
              busy={phone.busy}
              input={field('oldCode')}
              t={t}
            />
          )}
          <label>
            {t('account.bind.newPhone')}
            <input {...field('phone')} type="tel" inputMode="tel" autoComplete="tel" />
          </label>
          <CodeField label={t('account.bind.newCode')} sendLabel={t('login.sendCode')} send={sendNewCode} busy={phone.busy} input={field('code')} t={t} />
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
        <form className="form" onSubmit={(event) => void bindEmail(event)} noValidate>
          <label>
            {t('account.bind.newEmail')}
            <input {...field('email')} type="email" autoComplete="email" />
            <span className="hint">{t('account.bind.emailHint')}</span>
          </label>
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
                    onClick={() => void unbind(bound.Id, provider)}
                  >
                    {t('account.bind.unbind')}
                  </button>
                ) : (
                  offered.includes(provider) && (
                    <button type="button" className="button button-small" disabled={identities.busy} onClick={() => link(provider)}>
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
