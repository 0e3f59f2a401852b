/**
 * The Steam wallet recharge form (/recharge/steam): the wallet's
 * currency, a preset or custom amount within the product's bounds, the Steam
 * account (the linked one, or a friend code, SteamID64 or trade URL, checked
 * here before the server is asked), the exchange rate and the price in yuan —
 * then the pay page for the new order.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { commerceCalls, payCurrency, rechargePrice, steamTargetOf, type Product } from '#contract/commerce.ts';
import { formatMoney, formatPrice, minorPerMajor } from '#contract/facts.ts';
import { AmountChoice } from '@/components/AmountChoice.tsx';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { call } from '@/lib/api/client.ts';
import { minorOf } from '@/lib/money-input.ts';
import { $user } from '@/stores/session.ts';

interface Props {
  strings: Strings<KeysUnder<'recharge' | 'api' | 'common.loading'>>;
  locale: LocaleCode;
}

export default function RechargeForm({ strings, locale }: Props) {
  const t = translator(strings);
  const user = useStore($user);
  const [products, setProducts] = useState<Product[] | null>(null);
  const [code, setCode] = useState('');
  const [preset, setPreset] = useState<number | null>(null);
  const [custom, setCustom] = useState('');
  const [toLinked, setToLinked] = useState(true);
  const [target, setTarget] = useState('');
  const action = useAction(t);

  useEffect(() => {
    void action.run(async () => {
      const all = (await call(commerceCalls.products)).filter((product) => product.Kind === 'steamRecharge');
      setProducts(all);
      setCode(all[0]?.Code ?? '');
      setPreset(all[0]?.Presets[0] ?? null);
    });
  }, []);
  if (!products) return action.notice ? <NoticeLine notice={action.notice} t={t} /> : <Loading text={t('common.loading')} />;
  const product = products.find((candidate) => candidate.Code === code);
  if (!product?.Currency || !product.RatePpm || product.MinAmount === null || product.MaxAmount === null) return null;

  const { Currency: currency, RatePpm: rate, MinAmount: min, MaxAmount: max } = product;
  const money = (minor: number) => formatMoney(minor, currency, locale);
  const steam = user?.ExternalAccounts.find((account) => account.Provider === 'steam');
  const linked = Boolean(steam) && toLinked;
  const amount = preset ?? minorOf(custom, currency);
  const amountOk = amount !== null && (product.Presets.includes(amount) || (amount >= min && amount <= max));
  const steamId = linked ? steam!.Subject : steamTargetOf(target);
  const unit = minorPerMajor(currency);

  async function submit(event: SubmitEvent) {
    event.preventDefault();
    if (!amountOk) return action.setNotice({ kind: 'error', text: t('recharge.amountInvalid', { min: money(min), max: money(max) }) });
    if (!steamId) return action.setNotice({ kind: 'error', text: t(steam ? 'recharge.targetInvalid' : 'recharge.noLinked') });
    const order = await action.run(() =>
      authCall(commerceCalls.createOrder, { body: { Product: code, Amount: amount!, ...(linked ? {} : { Target: target.trim() }) } }),
    );
    if (order) location.assign(`${localizePath(locale, '/payment')}?key=${order.Key}`);
  }

  return (
    <section className="card" aria-labelledby="recharge-form">
      <h2 id="recharge-form">{t('recharge.formTitle')}</h2>
      <form className="form" onSubmit={(event) => void submit(event)} noValidate>
        {products.length > 1 && (
          <label>
            {t('recharge.region')}
            <select
              name="product"
              value={code}
              onChange={(event) => {
                const next = products.find((candidate) => candidate.Code === event.currentTarget.value);
                setCode(event.currentTarget.value);
                setPreset(next?.Presets[0] ?? null);
                setCustom('');
              }}
            >
              {products.map((candidate) => (
                <option key={candidate.Code} value={candidate.Code}>
                  {t('recharge.regionOption', {
                    region: new Intl.DisplayNames([locale], { type: 'region' }).of(candidate.Region ?? '') ?? candidate.Region ?? '',
                    currency: candidate.Currency ?? '',
                  })}
                </option>
              ))}
            </select>
          </label>
        )}
        <AmountChoice
          presets={product.Presets}
          preset={preset}
          onPreset={setPreset}
          custom={custom}
          onCustom={setCustom}
          money={money}
          labels={{ legend: t('recharge.amount'), other: t('recharge.other'), hint: t('recharge.otherHint', { min: money(min), max: money(max) }) }}
        />
        <fieldset className="choice-group">
          <legend>{t('recharge.target')}</legend>
          {steam ? (
            <>
              <label className="choice">
                <input type="radio" name="target" checked={toLinked} onChange={() => setToLinked(true)} />
                <span>{t('recharge.targetLinked', { name: steam.DisplayName })}</span>
              </label>
              <label className="choice">
                <input type="radio" name="target" checked={!toLinked} onChange={() => setToLinked(false)} />
                <span>{t('recharge.targetOther')}</span>
              </label>
            </>
          ) : (
            <p className="muted">{t('recharge.noLinked')}</p>
          )}
          {!linked && (
            <label>
              {t('recharge.targetInput')}
              <input name="steam" autoComplete="off" value={target} onChange={(event) => setTarget(event.currentTarget.value)} />
              <span className="hint">{t('recharge.targetHint')}</span>
            </label>
          )}
        </fieldset>
        {currency !== payCurrency && (
          <p className="muted" data-rate>
            {t('recharge.rate', { amount: money(unit * 100), price: formatPrice(rechargePrice(unit * 100, rate), locale) })}
          </p>
        )}
        <dl className="facts">
          <div>
            <dt>{t('recharge.total')}</dt>
            <dd className="pay-amount" data-total>
              {amountOk ? formatPrice(rechargePrice(amount!, rate), locale) : '—'}
            </dd>
          </div>
        </dl>
        <div className="form-actions">
          <button type="submit" className="button" disabled={action.busy}>
            {t('recharge.submit')}
          </button>
        </div>
      </form>
      <NoticeLine notice={action.notice} t={t} />
    </section>
  );
}
