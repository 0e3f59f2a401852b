/**
 * The Steam wallet recharge form (/recharge/steam): the wallet's
 * currency, a preset or custom amount within the product's bounds, the Steam
 * account (the linked one, or a friend code, SteamID64 or trade URL, checked
 * here before the server is asked), the exchange rate and the price in yuan —
 * then the pay page for the new order.
 */
import { useStore } from '@nanostores/react';
import { useState, type SubmitEvent } from 'react';
import { payCurrency, rechargePrice } from '#contract/commerce.ts';
import { formatMoney, formatPrice, minorPerMajor } from '#contract/facts.ts';
import { AmountChoice } from '@/components/AmountChoice.tsx';
import { Loading, NoticeLine } from '@/components/island.tsx';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { browserEnvironment } from './environment.ts';
import { createRechargeForm } from './recharge-store.ts';

interface Props {
  strings: Strings<KeysUnder<'recharge' | FailureMessageKey | 'common.loading'>>;
  locale: LocaleCode;
}

export default function RechargeForm({ strings, locale }: Props) {
  const t = translator(strings);
  const [form] = useState(() => createRechargeForm(browserEnvironment, { locale }));
  const products = useStore(form.$products);
  const code = useStore(form.$code);
  const preset = useStore(form.$preset);
  const custom = useStore(form.$custom);
  const toLinked = useStore(form.$toLinked);
  const target = useStore(form.$target);
  const choice = useStore(form.$choice);
  const busy = useStore(form.$busy);
  const notice = useStore(form.$notice);

  if (!products) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t('common.loading')} />;
  if (!choice) return null;

  const { product, steam, linked, price } = choice;
  const { Currency: currency, RatePpm: rate, MinAmount: min, MaxAmount: max } = product;
  const money = (minor: number) => formatMoney(minor, currency, locale);
  const unit = minorPerMajor(currency);

  function submit(event: SubmitEvent) {
    event.preventDefault();
    void form.submit();
  }

  return (
    <section className="card" aria-labelledby="recharge-form">
      <h2 id="recharge-form">{t('recharge.formTitle')}</h2>
      <form className="form" onSubmit={submit} noValidate>
        {products.length > 1 && (
          <label>
            {t('recharge.region')}
            <select name="product" value={code} onChange={(event) => form.selectProduct(event.currentTarget.value)}>
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
          onPreset={(amount) => form.$preset.set(amount)}
          custom={custom}
          onCustom={(typed) => form.$custom.set(typed)}
          money={money}
          labels={{ legend: t('recharge.amount'), other: t('recharge.other'), hint: t('recharge.otherHint', { min: money(min), max: money(max) }) }}
        />
        <fieldset className="choice-group">
          <legend>{t('recharge.target')}</legend>
          {steam ? (
            <>
              <label className="choice">
                <input type="radio" name="target" checked={toLinked} onChange={() => form.$toLinked.set(true)} />
                <span>{t('recharge.targetLinked', { name: steam.DisplayName })}</span>
              </label>
              <label className="choice">
                <input type="radio" name="target" checked={!toLinked} onChange={() => form.$toLinked.set(false)} />
                <span>{t('recharge.targetOther')}</span>
              </label>
            </>
          ) : (
            <p className="muted">{t('recharge.noLinked')}</p>
          )}
          {!linked && (
            <label>
              {t('recharge.targetInput')}
              <input name="steam" autoComplete="off" value={target} onChange={(event) => form.$target.set(event.currentTarget.value)} />
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
              {price !== null ? formatPrice(price, locale) : '—'}
            </dd>
          </div>
        </dl>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {t('recharge.submit')}
          </button>
        </div>
      </form>
      <NoticeLine notice={notice} t={t} />
    </section>
  );
}
