/**
 * The pay page's island (spec §2 /payment, §4 payment outcomes, §5 its key
 * parameter): the order's item, amount and number, a choice between scanning
 * a WeChat Pay code and paying from the wallet, the code with the time left,
 * and the outcome as soon as the server knows it — pushed through the hub, or
 * asked for every few seconds while the hub cannot connect. `?type=` (from the
 * desktop client) starts paying with that method at once.
 */
import { useEffect, useState } from 'react';
import { commerceCalls, outcomeOfRefusal, type OrderDetail, type PayOutcome, type Payment } from '#contract/commerce.ts';
import { ErrorCode } from '#contract/errors.ts';
import { formatMonths, formatPrice } from '#contract/facts.ts';
import { authCall, Loading, NoticeLine, useAction } from '@/components/island.tsx';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { ApiFailure, failureMessage } from '@/lib/api/errors.ts';
import { itemText } from '@/lib/order-text.ts';
import { followOrder } from '@/stores/orders.ts';

interface Props {
  strings: Strings<KeysUnder<'pay' | 'account.order.item' | 'api' | 'common.loading'>>;
  locale: LocaleCode;
}

const clock = (ms: number) => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

export default function PayPage({ strings, locale }: Props) {
  const t = translator(strings);
  const query = new URLSearchParams(location.search);
  const key = query.get('key') ?? '';
  const requestedType = query.get('type');
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [missing, setMissing] = useState(false);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [refusal, setRefusal] = useState<PayOutcome | null>(null);
  const [balance, setBalance] = useState<number | null>(null);
  const [now, setNow] = useState(Date.now());
  const action = useAction(t);

  async function load(): Promise<OrderDetail | null> {
    try {
      const loaded = await authCall(commerceCalls.order, { params: { key } });
      setOrder(loaded);
      return loaded;
    } catch (error) {
      if (error instanceof ApiFailure && (error.code === ErrorCode.NotFound || error.code === ErrorCode.BadRequest)) setMissing(true);
      else {
        const shown = failureMessage(error);
        action.setNotice({ kind: 'error', text: 'text' in shown ? shown.text : t(shown.key) });
      }
      return null;
    }
  }

  async function pay(method: string): Promise<void> {
    setRefusal(null);
    try {
      const started = await action.run(async () => {
        try {
          return await authCall(commerceCalls.pay, { params: { key }, body: { Method: method } });
        } catch (error) {
          const outcome = error instanceof ApiFailure && error.code !== undefined ? outcomeOfRefusal[error.code] : undefined;
          if (!outcome) throw error;
          setRefusal(outcome);
          return null;
        }
      });
      if (started) {
        setPayment(started);
        setOrder((current) => (current ? { ...current, ...started.Order } : current));
      }
    } finally {
      await load();
    }
  }

  useEffect(() => {
    if (!key) return;
    void load().then((loaded) => {
      if (!loaded || (loaded.State !== 'created' && loaded.State !== 'paying')) return;
      if (requestedType) void pay(requestedType);
      else if (loaded.State === 'paying' && loaded.Method === 'wechatpay')
        void pay('wechatpay'); // the same code again after a reload
      else
        void authCall(commerceCalls.summary).then(
          (summary) => setBalance(summary.Balance),
          () => {},
        );
    });
    const stop = followOrder(key, () => void load());
    const ticker = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      stop();
      clearInterval(ticker);
    };
  }, []);

  if (!key) return null; // the page's own notice says the parameter is missing
  if (missing)
    return (
      <p className="notice notice-warn" role="alert">
        {t('pay.notFound')}
      </p>
    );
  if (!order) return action.notice ? <NoticeLine notice={action.notice} /> : <Loading text={t('common.loading')} />;

  const outcome = order.Outcome ?? refusal;
  const open = (order.State === 'created' || order.State === 'paying') && !outcome;
  const price = formatPrice(order.Price, locale);
  const renewing = order.Agreement !== null;
  const left = Date.parse(order.ExpiresAt) - now;

  return (
    <div className="account-sections" data-pay-order={order.Key} data-state={order.State}>
      <section className="card" aria-labelledby="pay-summary">
        <h2 id="pay-summary" className="visually-hidden">
          {t('pay.item')}
        </h2>
        <dl className="facts">
          <div>
            <dt>{t('pay.item')}</dt>
            <dd>{itemText(order.Item, locale, t)}</dd>
          </div>
          <div>
            <dt>{t('pay.amountDue')}</dt>
            <dd className="pay-amount">{price}</dd>
          </div>
          <div>
            <dt>{t('pay.orderNumber')}</dt>
            <dd className="order-key">{order.Key}</dd>
          </div>
          {order.Agreement && (
            <div>
              <dt>{t('pay.agreementNumber')}</dt>
              <dd className="order-key" data-agreement-key>
                {order.Agreement}
              </dd>
            </div>
          )}
        </dl>
      </section>

      {outcome && (
        <section className="card pay-outcome" data-outcome={outcome}>
          <p className={`notice ${outcome === 'successful' ? 'notice-ok' : 'notice-warn'}`} role={outcome === 'successful' ? 'status' : 'alert'}>
            {t(`pay.outcome.${outcome}`)}
          </p>
          <div className="form-actions">
            <a className="button" href={localizePath(locale, `/account/center/order/detail?key=${order.Key}`)}>
              {t('pay.viewOrder')}
            </a>
            {outcome !== 'successful' && outcome !== 'paidByOther' && (
              <a className="button button-secondary" href={localizePath(locale, '/recharge/steam')}>
                {t('pay.newOrder')}
              </a>
            )}
          </div>
        </section>
      )}

      {open && (
        <section className="card" aria-labelledby="pay-how">
          <h2 id="pay-how">{payment?.QrSvg ? t(renewing ? 'pay.signScan' : 'pay.scan') : t('pay.choose')}</h2>
          {renewing && <p data-auto-renew>{t('pay.autoRenewNote', { price, period: formatMonths(order.Item.Months ?? 0, locale) })}</p>}
          {payment?.QrSvg ? (
            <div className="pay-code">
              <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(payment.QrSvg)}`} alt={t('pay.qrLabel', { price })} width={220} height={220} />
              <p className="muted">{t('pay.scanHint')}</p>
              <p role="status" aria-live="polite">
                {t('pay.waiting')}
              </p>
              <p className="muted" data-countdown>
                {t('pay.expiresIn', { time: clock(left) })}
              </p>
            </div>
          ) : (
            <div className="form-actions">
              <button type="button" className="button" disabled={action.busy} onClick={() => void pay('wechatpay')}>
                {t(renewing ? 'pay.showSignCode' : 'pay.showCode')}
              </button>
              {/* An auto-renewal is signed and charged through the provider's contract: the wallet cannot pay it. */}
              {!renewing && (
                <button
                  type="button"
                  className="button button-secondary"
                  disabled={action.busy || (balance !== null && balance < order.Price)}
                  onClick={() => void pay('wallet')}
                >
                  {t('pay.payWallet', { price })}
                </button>
              )}
              {!renewing && balance !== null && <span className="muted">{t('pay.balance', { balance: formatPrice(balance, locale) })}</span>}
            </div>
          )}
          <div className="form-actions">
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={action.busy}
              onClick={() => void action.run(() => authCall(commerceCalls.cancel, { params: { key } })).then(() => load())}
            >
              {t('pay.cancel')}
            </button>
          </div>
        </section>
      )}
      <NoticeLine notice={action.notice} />
    </div>
  );
}
