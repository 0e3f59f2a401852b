/**
 * Redeeming a cdkey (`/activate/cdkey`): the key is grouped as it is
 * typed and checked in the browser (contract/cdkey-format.ts), so a typo is
 * caught before the server is asked; the server's answer says what was granted,
 * and its refusals come in the page's language.
 */
import { useState, type SubmitEvent } from 'react';
import { activationCalls } from '#contract/activation.ts';
import type { ResponseOf } from '#contract/api.ts';
import { cdkeyLength, cdkeyShape, formatCdkey, normalizeCdkey } from '#contract/cdkey-format.ts';
import { formatPrice } from '#contract/facts.ts';
import { NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { formatDay } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { grantText } from '@/lib/grant-text.ts';

interface Props {
  strings: Strings<KeysUnder<'activate.cdkey' | 'account.redemption.grant' | 'api'>>;
  locale: LocaleCode;
}

type Redeemed = ResponseOf<typeof activationCalls.redeem>;

export default function RedeemCdkey({ strings, locale }: Props) {
  const t = translator(strings);
  const [typed, setTyped] = useState('');
  const [redeemed, setRedeemed] = useState<Redeemed | null>(null);
  const action = useAction(t);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    setRedeemed(null);
    const shape = cdkeyShape(typed);
    if (shape !== 'ok') {
      action.setNotice({ kind: 'error', text: t(shape === 'checksum' ? 'activate.cdkey.typo' : 'activate.cdkey.incomplete') });
      return;
    }
    const answer = await action.run(() => authCall(activationCalls.redeem, { body: { Key: typed } }));
    if (answer) {
      setRedeemed(answer);
      setTyped('');
    }
  }

  const granted = redeemed?.Redemption.Grant;
  return (
    <form className="card form" onSubmit={(event) => void submit(event)} noValidate>
      <label htmlFor="cdkey">{t('activate.cdkey.label')}</label>
      <input
        id="cdkey"
        name="cdkey"
        className="cdkey-input"
        value={typed}
        onChange={(event) => setTyped(formatCdkey(normalizeCdkey((event.target as HTMLInputElement).value).slice(0, cdkeyLength)))}
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
        <button type="submit" className="button" disabled={action.busy || typed === ''}>
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
      <NoticeLine notice={action.notice} t={t} />
    </form>
  );
}
