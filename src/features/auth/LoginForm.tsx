/**
 * The login widget: SMS login, quick login and — in Chinese
 * only — password login, behind one agreement checkbox. It renders the login
 * form's stores and calls its actions; the logic is in login-store.ts.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type ReactNode, type SubmitEvent } from 'react';
import { deviceLogin } from '#contract/device-login.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import ProofOfWork, { type ProofOfWorkKey } from '@/components/ProofOfWork.tsx';
import DeviceApproval from './DeviceApproval.tsx';
import { browserEnvironment } from './environment.ts';
import { providerName, type ProviderIcons } from '@/lib/quick-login-providers.ts';
import { createLoginForm, type LoginKey, type LoginMessage, type LoginOptions } from './login-store.ts';
import './login.css';

interface Props extends LoginOptions {
  locale: LocaleCode;
  /** This page's translations of the login.*, session.*, api.* and proofOfWork.* keys. */
  strings: Strings<LoginKey | ProofOfWorkKey>;
  /** The checkbox label with its two links, translated by the page: its `agreement` slot, which Astro hands over as this prop. */
  agreement?: ReactNode;
  /** The quick-login providers' marks, made by the page. */
  icons: ProviderIcons;
}

/**
 * False while the island hydrates the prerendered page, true from then on.
 * The page was built knowing nobody's login and with no script run, so the
 * first render must be that page (a hydration mismatch otherwise); what only
 * the browser knows — who is logged in, a notice left by another page — shows
 * in the render right after, once mounted.
 */
function useHydrated(): boolean {
  const [hydrated, setHydrated] = useState(false);
  useEffect(() => setHydrated(true), []);
  return hydrated;
}

export default function LoginForm({ strings, agreement, showPassword, fallbackPath, locale, icons }: Props) {
  const t = translator(strings);
  const [form] = useState(() => createLoginForm(browserEnvironment, { showPassword, fallbackPath }));
  const hydrated = useHydrated();
  const tab = useStore(form.$tab);
  const agreed = useStore(form.$agreed);
  const phone = useStore(form.$phone);
  const code = useStore(form.$code);
  const account = useStore(form.$account);
  const password = useStore(form.$password);
  const countdown = useStore(form.$countdown);
  const busy = useStore(form.$busy);
  const message = useStore(form.$message);
  const redirecting = useStore(form.$redirecting);
  const signedInAs = useStore(form.$signedInAs);
  const providers = useStore(form.$providers);
  const unreachable = useStore(form.$unreachable);
  const pendingPhone = useStore(form.$pendingPhone);
  const challenge = useStore(form.challenge.$challenge);

  const text = (shown: LoginMessage) => ('text' in shown ? shown.text : t(shown.key, shown.params));
  const submit = (action: () => Promise<void>) => (event: SubmitEvent) => {
    event.preventDefault();
    void action();
  };

  // The SMS login and a quick login's phone step ask for the same two things.
  const phoneAndCode = (
    <>
      <label>
        {t('login.phone')}
        <input
          name="phone"
          type="tel"
          inputMode="tel"
          autoComplete="tel"
          placeholder={t('login.phonePlaceholder')}
          value={phone}
          onChange={(e) => form.$phone.set(e.target.value)}
        />
      </label>
      <label>
        {t('login.code')}
        <span className="input-row">
          <input
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={6}
            placeholder={t('login.codePlaceholder')}
            value={code}
            onChange={(e) => form.$code.set(e.target.value)}
          />
          <button type="button" className="button button-secondary" disabled={busy || countdown > 0} onClick={() => void form.sendCode()}>
            {countdown > 0 ? t('login.resendIn', { seconds: countdown }) : t('login.sendCode')}
          </button>
        </span>
      </label>
      {challenge && <ProofOfWork challenge={challenge} t={t} onSolved={form.challenge.solved} />}
    </>
  );

  // A desktop sign-in to approve (known once hydrated: the prerendered page has no address).
  const deviceCode = hydrated ? new URLSearchParams(location.search).get(deviceLogin.queryParameter) : null;
  if (hydrated && signedInAs !== null && deviceCode !== null) return <DeviceApproval code={deviceCode} name={signedInAs} locale={locale} t={t} />;

  if (hydrated && signedInAs !== null) {
    return (
      <div className="card login-card">
        <p>{t('login.alreadyIn', { name: signedInAs })}</p>
        <a className="button" href={form.target()}>
          {t('login.continue')}
        </a>
      </div>
    );
  }

  return (
    // Disabled until the island has taken over the prerendered form: input typed before that would be lost.
    <fieldset className="card login-card" disabled={!hydrated}>
      {deviceCode !== null && <p className="notice notice-info">{t('login.device.loginFirst')}</p>}
      {pendingPhone ? (
        <form className="form" onSubmit={submit(form.submitPendingPhone)} noValidate data-pending-phone={pendingPhone.provider}>
          <h2>{t('login.pendingPhone.title')}</h2>
          <p>{t('login.pendingPhone.intro', { provider: providerName(pendingPhone.provider), name: pendingPhone.name })}</p>
          {phoneAndCode}
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy || redirecting}>
              {busy ? t('login.working') : t('login.pendingPhone.submit')}
            </button>
            <button type="button" className="button button-secondary" disabled={busy || redirecting} onClick={form.cancelPendingPhone}>
              {t('login.pendingPhone.cancel')}
            </button>
          </div>
        </form>
      ) : (
        <>
          <div className="tabs" role="tablist">
            {form.tabs.map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                aria-selected={tab === name}
                className={tab === name ? 'active' : undefined}
                onClick={() => form.selectTab(name)}
              >
                {t(`login.tab.${name}`)}
              </button>
            ))}
          </div>
          <p className="muted">{t(`login.method.${tab}`)}</p>

          {tab === 'sms' && (
            <form className="form" onSubmit={submit(form.submitSms)} noValidate>
              {phoneAndCode}
              <button type="submit" className="button" disabled={busy || redirecting}>
                {busy ? t('login.working') : t('login.submit')}
              </button>
            </form>
          )}

          {tab === 'quick' && (
            <div className="form">
              {providers === null && busy && <p className="muted">{t('login.working')}</p>}
              {providers?.map(({ Provider }) => (
                <button
                  key={Provider}
                  type="button"
                  className="button button-secondary quick-provider"
                  data-provider={Provider}
                  disabled={busy || redirecting}
                  onClick={() => void form.quickLogin(Provider)}
                >
                  <span dangerouslySetInnerHTML={{ __html: icons[Provider] }} />
                  {t('login.quickWith', { provider: providerName(Provider) })}
                </button>
              ))}
              {unreachable && (
                <div className="form-actions">
                  <button type="button" className="button button-small" disabled={busy} onClick={() => void form.quickLogin(unreachable)}>
                    {t('login.retry')}
                  </button>
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    disabled={busy}
                    onClick={() => void form.quickLogin(unreachable, false)}
                  >
                    {t('login.continueAnyway')}
                  </button>
                </div>
              )}
            </div>
          )}

          {tab === 'password' && (
            <form className="form" onSubmit={submit(form.submitPassword)} noValidate>
              <label>
                {t('login.account')}
                <input name="account" autoComplete="username" value={account} onChange={(e) => form.$account.set(e.target.value)} />
              </label>
              <label>
                {t('login.password')}
                <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => form.$password.set(e.target.value)} />
              </label>
              <button type="submit" className="button" disabled={busy || redirecting}>
                {busy ? t('login.working') : t('login.passwordSubmit')}
              </button>
            </form>
          )}
        </>
      )}

      <label className="agree">
        <input type="checkbox" name="agree" checked={agreed} onChange={(e) => form.$agreed.set(e.target.checked)} />
        <span>{agreement}</span>
      </label>

      {hydrated && message && (
        <p className={`notice ${message.kind === 'error' ? 'notice-error' : 'notice-info'}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {text(message)}
        </p>
      )}
    </fieldset>
  );
}
