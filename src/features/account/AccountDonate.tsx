/**
 * Donating (account centre `redemption/donate`): a preset or custom amount of
 * the wallet balance, an opt-in name for the sponsor page, a confirmation,
 * then the new balance; below, the user's donations, whose names they can
 * take off the sponsor page.
 */
import { useStore } from '@nanostores/react';
import { useRef, useState, type SubmitEvent } from 'react';
import { donationRules } from '#contract/donation.ts';
import { formatPrice } from '#contract/facts.ts';
import { AmountChoice } from '@/components/AmountChoice.tsx';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { centerEnvironment } from './center-environment.ts';
import { createDonation } from './donate-store.ts';

interface Props {
  strings: Strings<KeysUnder<'account.donate' | 'account.redemption.redeem' | FailureMessageKey | 'common'>>;
  locale: LocaleCode;
}

export default function AccountDonate({ strings, locale }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createDonation(centerEnvironment, { locale }));
  const balance = useStore(store.$balance);
  const donations = useStore(store.$donations);
  const preset = useStore(store.$preset);
  const custom = useStore(store.$custom);
  const named = useStore(store.$named);
  const name = useStore(store.$name);
  const amount = useStore(store.$amount);
  const amountOk = useStore(store.$amountOk);
  const busy = useStore(store.$busy);
  const notice = useStore(store.$notice);
  const confirm = useRef<HTMLDialogElement>(null);
  const money = (fen: number) => formatPrice(fen, locale);
  if (balance === null) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t('common.loading')} />;

  const bounds = t('account.donate.amountHint', { min: money(donationRules.minimum), max: money(donationRules.maximum) });

  function ask(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (store.check()) confirm.current?.showModal();
  }

  function give() {
    confirm.current?.close();
    void store.give();
  }

  return (
    <div className="account-sections">
      <section className="card" aria-labelledby="donate-form">
        <h2 id="donate-form">{t('account.donate.heading')}</h2>
        <p>
          {t('account.donate.balance')} <strong data-balance>{money(balance)}</strong>
        </p>
        <form className="form" onSubmit={ask} noValidate>
          <AmountChoice
            presets={donationRules.amounts}
            preset={preset}
            onPreset={(chosen) => store.$preset.set(chosen)}
            custom={custom}
            onCustom={(typed) => store.$custom.set(typed)}
            money={money}
            labels={{ legend: t('account.donate.amount'), other: t('account.donate.other'), hint: bounds }}
          />
          <label className="choice">
            <input type="checkbox" name="named" checked={named} onChange={(event) => store.$named.set(event.currentTarget.checked)} />
            <span>{t('account.donate.showName')}</span>
          </label>
          {named && (
            <label>
              {t('account.donate.name')}
              <input
                name="name"
                autoComplete="nickname"
                maxLength={donationRules.nameMaxLength}
                value={name}
                onChange={(event) => store.$name.set(event.currentTarget.value)}
              />
              <span className="hint">{t('account.donate.nameHint', { max: String(donationRules.nameMaxLength) })}</span>
            </label>
          )}
          <div className="form-actions">
            <button type="submit" className="button" disabled={busy}>
              {t('account.donate.submit', { amount: amountOk ? money(amount!) : '' }).trim()}
            </button>
            {amountOk && amount! > balance && (
              <a className="button button-secondary" href={localizePath(locale, '/activate/cdkey')}>
                {t('account.redemption.redeem')}
              </a>
            )}
          </div>
          <NoticeLine notice={notice} t={t} />
        </form>
        <dialog ref={confirm} className="confirm-dialog" aria-labelledby="donate-confirm">
          <p id="donate-confirm">{t('account.donate.confirm', { amount: amountOk ? money(amount!) : '' })}</p>
          <div className="form-actions">
            <button type="button" className="button" onClick={give} data-confirm-donation>
              {t('account.donate.confirmYes')}
            </button>
            <button type="button" className="button button-secondary" onClick={() => confirm.current?.close()}>
              {t('account.donate.cancel')}
            </button>
          </div>
        </dialog>
      </section>
      <section className="card" aria-labelledby="donate-history">
        <h2 id="donate-history">{t('account.donate.history')}</h2>
        {donations.length === 0 ? (
          <p className="muted">{t('account.donate.empty')}</p>
        ) : (
          <ul className="item-list" data-donations>
            {donations.map((donation) => (
              <li key={donation.Id}>
                <span className="item-main">
                  <strong>{money(donation.Amount)}</strong>
                  <span className="muted">
                    <time dateTime={donation.At}>{formatDateTime(donation.At, locale)}</time> · {donation.Name ?? t('account.donate.anonymous')}
                  </span>
                </span>
                {donation.Name !== null && (
                  <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void store.unname(donation.Id)}>
                    {t('account.donate.removeName')}
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
        <p>
          <a href={localizePath(locale, '/sponsor')}>{t('account.donate.sponsorPage')}</a>
        </p>
      </section>
    </div>
  );
}
