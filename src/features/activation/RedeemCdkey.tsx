/**
 * Redeeming a cdkey (`/activate/cdkey`): the key is grouped as it is
 * typed and checked in the browser (contract/cdkey-format.ts), so a typo is
 * caught before the server is asked; the server's answer says what was granted,
 * and its refusals come in the page's language.
 */
import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import { cdkeyLength } from '#contract/cdkey-format.ts';
import { formatPrice } from '#contract/facts.ts';
import { NoticeLine } from '@/components/island.tsx';
import { formatDay } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { grantText } from '@/lib/grant-text.ts';
import { browserEnvironment } from './environment.ts';
import { createRedeemCdkey } from './redeem-store.ts';

interface Props {
  strings: Strings<KeysUnder<'activate.cdkey' | 'account.redemption.grant' | FailureMessageKey>>;
  locale: LocaleCode;
}

export default function RedeemCdkey({ strings, locale }: Props) {
  const t = translator(strings);
  const [form] = useState(() => createRedeemCdkey(browserEnvironment));
  const typed = useStore(form.$typed);
  const redeemed = useStore(form.$redeemed);
  const busy = useStore(form.$busy);
  const notice = useStore(form.$notice);

  function submit(event: SubmitEvent) {
    event.preventDefault();
    void form.submit();
  }

  const granted = redeemed?.Redemption.Grant;
  return (
    <form className="card form" onSubmit={submit} noValidate>
      <label htmlFor="cdkey">{t('activate.cdkey.label')}</label>
      <input
        id="cdkey"
        name="cdkey"
        className="cdkey-input"
        value={typed}
        onChange={(event) => form.type((event.target as HTMLInputElement).value)}
        autoComplete="off"
        autoCapitalize="characters"
        spellCheck={false}
        aria-describedby="cdkey-hint"
        maxLength={cdkeyLength + 3}
      />
      <p id="cdkey-hint" className="muted">
        {t('activate.cdkey.hint')}
      </p>
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy || typed === ''}>
          {t('activate.cdkey.submit')}
        </button>
      </div>
      {redeemed && granted && (
        <p className="notice notice-ok" role="status" data-redeemed>
          {t('activate.cdkey.granted', { grant: grantText(granted, locale, t) })}{' '}
          {granted.Kind === 'wallet' && t('activate.cdkey.balance', { balance: formatPrice(redeemed.Balance, locale) })}
          {granted.Kind === 'membership' && redeemed.MembershipUntil && t('activate.cdkey.until', { date: formatDay(redeemed.MembershipUntil, locale) })}
          {redeemed.Redemption.Order && (
            <a href={`${localizePath(locale, '/account/center/order/detail')}?key=${redeemed.Redemption.Order}`}>{t('activate.cdkey.viewOrder')}</a>
          )}
        </p>
      )}
      <NoticeLine notice={notice} t={t} />
    </form>
  );
}
