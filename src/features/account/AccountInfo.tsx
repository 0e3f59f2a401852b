/**
 * The profile page's island (the user info): the logged-in
 * user's avatar (the first of AvatarUrl), nickname, masked phone and e-mail,
 * when they joined, whether a password is set, and their linked quick-login
 * identities, from the session store the layout keeps fresh, and a glance at
 * the wallet balance and the cloud-idling plan (info-store.ts). It renders
 * only in the browser: the built page knows nobody's login.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatPrice } from '#contract/facts.ts';
import { Loading } from '@/components/island.tsx';
import { formatDay } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { h5AvatarUrl } from '@/lib/avatar.ts';
import { providerName } from '@/lib/quick-login-providers.ts';
import { centerEnvironment } from './center-environment.ts';
import { createAccountInfo } from './info-store.ts';
import './AccountInfo.css';

interface Props {
  /** This page's translations of the account.info.* keys. */
  strings: Strings<KeysUnder<'account.info'>>;
  locale: LocaleCode;
}

export default function AccountInfo({ strings, locale }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createAccountInfo(centerEnvironment));
  const user = useStore(store.$user);
  const summary = useStore(store.$summary);
  if (!user) return <Loading text={t('account.info.loading')} />;

  const value = (text: string | null) => text ?? <span className="muted">{t('account.info.notSet')}</span>;
  return (
    <div className="card profile" data-profile>
      <div className="profile-head">
        <img src={h5AvatarUrl(user)} alt="" width={72} height={72} />
        <h2 data-nickname>{user.NickName}</h2>
      </div>
      <dl className="facts">
        <div>
          <dt>{t('account.info.phone')}</dt>
          <dd data-phone>{value(user.Phone)}</dd>
        </div>
        <div>
          <dt>{t('account.info.email')}</dt>
          <dd>{value(user.Email)}</dd>
        </div>
        <div>
          <dt>{t('account.info.password')}</dt>
          <dd>{user.HasPassword ? t('account.info.passwordSet') : value(null)}</dd>
        </div>
        <div>
          <dt>{t('account.info.memberSince')}</dt>
          <dd>
            <time dateTime={user.CreatedAt}>{formatDay(user.CreatedAt, locale)}</time>
          </dd>
        </div>
      </dl>
      <h3>{t('account.info.linked')}</h3>
      {user.ExternalAccounts.length === 0 ? (
        <p className="muted">{t('account.info.noneLinked')}</p>
      ) : (
        <ul className="linked-accounts">
          {user.ExternalAccounts.map((account) => (
            <li key={account.Id}>
              <strong>{providerName(account.Provider)}</strong> {account.DisplayName}
            </li>
          ))}
        </ul>
      )}
      {summary && (
        <dl className="facts" data-summary>
          <div>
            <dt>{t('account.info.wallet')}</dt>
            <dd>
              <span data-balance>{formatPrice(summary.Balance, locale)}</span> ·{' '}
              <a href={localizePath(locale, '/account/center/wallet')}>{t('account.info.toWallet')}</a>
            </dd>
          </div>
          <div>
            <dt>{t('account.info.membership')}</dt>
            <dd data-membership>
              {summary.MembershipUntil
                ? t('account.info.membershipUntil', { date: formatDay(summary.MembershipUntil, locale) })
                : t('account.info.noMembership')}{' '}
              · <a href={localizePath(locale, '/account/center/order')}>{t('account.info.toOrders')}</a>
            </dd>
          </div>
        </dl>
      )}
    </div>
  );
}
