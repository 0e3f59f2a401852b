/**
 * The login widget (spec §2, §5): SMS login, quick login and — in Chinese
 * only — password login, behind one agreement checkbox. After login it says so
 * and returns to `redirectUrl` (same-site paths only).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import { identity, type LoginResult } from '../../../contract/identity.ts';
import { translator, type Strings } from '../../i18n/strings.ts';
import { call } from '../../lib/api/client.ts';
import { failureText } from '../../lib/api/errors.ts';
import { $isLoggedIn, $user, deviceId, signIn, takeNotice } from '../../stores/session.ts';
import { safeRedirect } from './redirect.ts';
import { checkPasswordLogin, checkSmsLogin } from './validation.ts';

type Tab = 'sms' | 'quick' | 'password';
type Message = { kind: 'error' | 'info'; text: string } | null;

interface Props {
  /** This page's translations of the login.*, session.* and api.* keys. */
  strings: Strings;
  /** The checkbox label with its two links, already translated. */
  agreementHtml: string;
  showPassword: boolean;
  /** Where to go when redirectUrl is missing or not ours. */
  fallbackPath: string;
}

const resendSeconds = 60;
const quickProviders = ['WeChat', 'Xbox', 'Steam'] as const;

export default function LoginForm({ strings, agreementHtml, showPassword, fallbackPath }: Props) {
  const t = translator(strings);
  const tabs: Tab[] = showPassword ? ['sms', 'quick', 'password'] : ['sms', 'quick'];

  const [tab, setTab] = useState<Tab>('sms');
  const [agreed, setAgreed] = useState(false);
  const [phone, setPhone] = useState('');
  const [code, setCode] = useState('');
  const [account, setAccount] = useState('');
  const [password, setPassword] = useState('');
  const [countdown, setCountdown] = useState(0);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<Message>(null);
  const [redirecting, setRedirecting] = useState(false);
  // Until React has taken over the server-rendered form, input would be lost: keep it disabled.
  const [ready, setReady] = useState(false);
  const loggedIn = useStore($isLoggedIn);
  const user = useStore($user);

  const target = () => safeRedirect(new URLSearchParams(location.search).get('redirectUrl'), location.origin, fallbackPath);

  useEffect(() => {
    setReady(true);
    const notice = takeNotice();
    if (notice) setMessage({ kind: 'error', text: t(notice) });
  }, []);

  useEffect(() => {
    if (countdown <= 0) return;
    const timer = setTimeout(() => setCountdown(countdown - 1), 1000);
    return () => clearTimeout(timer);
  }, [countdown]);

  async function run<T>(action: () => Promise<T>): Promise<T | undefined> {
    setBusy(true);
    setMessage(null);
    try {
      return await action();
    } catch (error) {
      setMessage({ kind: 'error', text: failureText(error, t) });
      return undefined;
    } finally {
      setBusy(false);
    }
  }

  function finish(result: LoginResult) {
    signIn(result);
    setRedirecting(true);
    setMessage({ kind: 'info', text: t('login.redirecting') });
    setTimeout(() => location.assign(target()), 800);
  }

  async function sendCode() {
    const problem = checkSmsLogin({ agreed, phone });
    if (problem) return setMessage({ kind: 'error', text: t(problem) });
    await run(async () => {
      await call(identity.sendSmsCode, { body: { Phone: phone.trim() } });
      setCountdown(resendSeconds);
      setMessage({ kind: 'info', text: t('login.codeSent') });
    });
  }

  async function submitSms(event: FormEvent) {
    event.preventDefault();
    const problem = checkSmsLogin({ agreed, phone, code });
    if (problem) return setMessage({ kind: 'error', text: t(problem) });
    const result = await run(() => call(identity.loginOrRegister, { body: { Phone: phone.trim(), Code: code.trim(), DeviceId: deviceId() } }));
    if (result) finish(result);
  }

  async function submitPassword(event: FormEvent) {
    event.preventDefault();
    const problem = checkPasswordLogin({ agreed, account, password });
    if (problem) return setMessage({ kind: 'error', text: t(problem) });
    const result = await run(() => call(identity.loginByPassword, { body: { Account: account.trim(), Password: password, DeviceId: deviceId() } }));
    if (result) finish(result);
  }

  function quickLogin(provider: (typeof quickProviders)[number]) {
    if (!agreed) return setMessage({ kind: 'error', text: t('login.agreeFirst') });
    setMessage({ kind: 'error', text: t('login.quickNotConfigured', { provider }) });
  }

  if (loggedIn && user && !redirecting) {
    return (
      <div className="card login-card">
        <p>{t('login.alreadyIn', { name: user.NickName })}</p>
        <a className="button" href={target()}>{t('login.continue')}</a>
      </div>
    );
  }

  return (
    <fieldset className="card login-card" disabled={!ready}>
      <div className="tabs" role="tablist">
        {tabs.map((name) => (
          <button key={name} type="button" role="tab" aria-selected={tab === name} className={tab === name ? 'active' : undefined} onClick={() => { setTab(name); setMessage(null); }}>
            {t(`login.tab.${name}`)}
          </button>
        ))}
      </div>
      <p className="muted">{t(`login.method.${tab}`)}</p>

      {tab === 'sms' && (
        <form className="login-form" onSubmit={submitSms} noValidate>
          <label>
            {t('login.phone')}
            <input name="phone" type="tel" inputMode="tel" autoComplete="tel" placeholder={t('login.phonePlaceholder')} value={phone} onChange={(e) => setPhone(e.target.value)} />
          </label>
          <label>
            {t('login.code')}
            <span className="input-row">
              <input name="code" inputMode="numeric" autoComplete="one-time-code" maxLength={6} placeholder={t('login.codePlaceholder')} value={code} onChange={(e) => setCode(e.target.value)} />
              <button type="button" className="button button-secondary" disabled={busy || countdown > 0} onClick={sendCode}>
                {countdown > 0 ? t('login.resendIn', { seconds: countdown }) : t('login.sendCode')}
              </button>
            </span>
          </label>
          <button type="submit" className="button" disabled={busy || redirecting}>{busy ? t('login.working') : t('login.submit')}</button>
        </form>
      )}

      {tab === 'quick' && (
        <div className="login-form">
          {quickProviders.map((provider) => (
            <button key={provider} type="button" className="button button-secondary" onClick={() => quickLogin(provider)}>{provider}</button>
          ))}
          <p className="muted">{t('login.steamNote')}</p>
        </div>
      )}

      {tab === 'password' && (
        <form className="login-form" onSubmit={submitPassword} noValidate>
          <label>
            {t('login.account')}
            <input name="account" autoComplete="username" value={account} onChange={(e) => setAccount(e.target.value)} />
          </label>
          <label>
            {t('login.password')}
            <input name="password" type="password" autoComplete="current-password" value={password} onChange={(e) => setPassword(e.target.value)} />
          </label>
          <button type="submit" className="button" disabled={busy || redirecting}>{busy ? t('login.working') : t('login.passwordSubmit')}</button>
        </form>
      )}

      <label className="agree">
        <input type="checkbox" name="agree" checked={agreed} onChange={(e) => setAgreed(e.target.checked)} />
        <span dangerouslySetInnerHTML={{ __html: agreementHtml }} />
      </label>

      {message && (
        <p className={`notice ${message.kind === 'error' ? 'notice-warn' : 'notice-info'}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
    </fieldset>
  );
}
