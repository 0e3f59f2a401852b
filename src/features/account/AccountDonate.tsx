/**
 * Donating (account centre `redemption/donate`): a preset or custom amount of
 * the wallet balance, an opt-in name for the sponsor page, a confirmation,
 * then the new balance; below, the user's donations, whose names they can
 * take off the sponsor page.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type SubmitEvent } from 'react';
import { commerceCalls, payCurrency } from '#contract/commerce.ts';
import { donationCalls, donationRules, type Donation } from '#contract/donation.ts';
import { formatPrice } from '#contract/facts.ts';
import { AmountChoice } from '@/components/AmountChoice.tsx';
import { Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { minorOf } from '@/lib/money-input.ts';
import { $user } from '@/stores/session.ts';

interface Props {
  strings: Strings<KeysUnder<'account.donate' | 'account.redemption.redeem' | 'api' | 'common'>>;
  locale: LocaleCode;
}

export default function AccountDonate({ strings, locale }: Props) {
  const t = translator(strings);
  const user = useStore($user);
  const [balance, setBalance] = useState<number | null>(null);
  const [donations, setDonations] = useState<Donation[]>([]);
  const [preset, setPreset] = useState<number | null>(donationRules.amounts[0]);
  const [custom, setCustom] = useState('');
  const [named, setNamed] = useState(false);
  const [name, setName] = useState('');
  const confirm = useRef<HTMLDialogElement>(null);
  const action = useAction(t);
  const money = (fen: number) => formatPrice(fen, locale);

  useEffect(() => {
    void action.run(async () => {
      const [summary, mine] = await Promise.all([authCall(commerceCalls.summary), authCall(donationCalls.mine)]);
      setBalance(summary.Balance);
      setDonations(mine);
    });
  }, []);
  useEffect(() => {
    if (user && !name) setName(user.NickName.slice(0, donationRules.nameMaxLength));
  }, [user]);
  if (balance === null) return action.notice ? <NoticeLine notice={action.notice} t={t} /> : <Loading text={t('common.loading')} />;

  const amount = preset ?? minorOf(custom, payCurrency);
  const bounds = t('account.donate.amountHint', { min: money(donationRules.minimum), max: money(donationRules.maximum) });
  const amountOk = amount !== null && amount >= donationRules.minimum && amount <= donationRules.maximum;
  const nameOk = !named || (name.trim().length > 0 && name.trim().length <= donationRules.nameMaxLength);

  function ask(event: SubmitEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!amountOk)
      return action.setNotice({
        kind: 'error',
        text: t('account.donate.amountHint', { min: money(donationRules.minimum), max: money(donationRules.maximum) }),
      });
    if (!nameOk) return action.setNotice({ kind: 'error', text: t('account.donate.nameNeeded') });
    if (amount! > balance!) return action.setNotice({ kind: 'error', text: t('account.donate.notEnough') });
    confirm.current?.showModal();
  }

  async function give() {
    confirm.current?.close();
    const given = await action.run(
      () => authCall(donationCalls.donate, { body: { Amount: amount!, Name: named ? name.trim() : null } }),
      t('account.donate.thanks'),
    );
    if (!given) return;
    setBalance(given.Balance);
    setDonations([given.Donation, ...donations]);
  }

  async function unname(donation: Donation) {
    const changed = await action.run(() => authCall(donationCalls.removeName, { params: { id: donation.Id } }), t('account.donate.nameRemoved'));
    if (changed) setDonations(donations.map((entry) => (entry.Id === changed.Id ? changed : entry)));
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
            onPreset={setPreset}
            custom={custom}
            onCustom={setCustom}
            money={money}
            labels={{ legend: t('account.donate.amount'), other: t('account.donate.other'), hint: bounds }}
          />
          <label className="choice">
            <input type="checkbox" name="named" checked={named} onChange={(event) => setNamed(event.currentTarget.checked)} />
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
                onChange={(event) => setName(event.currentTarget.value)}
              />
              <span className="hint">{t('account.donate.nameHint', { max: String(donationRules.nameMaxLength) })}</span>
            </label>
          )}
          <div className="form-actions">
            <button type="submit" className="button" disabled={action.busy}>
              {t('account.donate.submit', { amount: amountOk ? money(amount!) : '' }).trim()}
            </button>
            {amountOk && amount! > balance && (
              <a className="button button-secondary" href={localizePath(locale, '/activate/cdkey')}>
                {t('account.redemption.redeem')}
              </a>
            )}
          </div>
          <NoticeLine notice={action.notice} t={t} />
        </form>
        <dialog ref={confirm} className="confirm-dialog" aria-labelledby="donate-confirm">
          <p id="donate-confirm">{t('account.donate.confirm', { amount: amountOk ? money(amount!) : '' })}</p>
          <div className="form-actions">
            <button type="button" className="button" onClick={() => void give()} data-confirm-donation>
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
                  <button type="button" className="button button-secondary button-small" disabled={action.busy} onClick={() => void unname(donation)}>
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
