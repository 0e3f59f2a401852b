/**
 * The pay page's island (/payment, which needs its key
 * parameter): the order's item, amount and number, the ways to pay, and the
 * outcome as soon as the server knows it — pushed through the hub, or asked
 * for every few seconds while the hub cannot connect. On a computer a WeChat
 * Pay code to scan leads; on a phone (or a touch screen) "Pay in WeChat"
 * leads (WeChat Pay H5), which comes back here with `?from=wechatpay` — and
 * coming back proves nothing: the page says it is checking, and only the
 * server's word on the order shows a payment. `?type=` (from the desktop
 * client) starts paying with that method at once.
 */
import { useEffect, useRef, useState } from 'react';
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
import './PayPage.css';

interface Props {
  strings: Strings<KeysUnder<'pay' | 'account.order.item' | 'api' | 'common.loading'>>;
  locale: LocaleCode;
}

const clock = (ms: number) => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

/** A phone-sized screen or one worked by touch: paying in WeChat on the device itself leads there, the code to scan from another device follows. */
const phoneScreen = '(max-width: 40rem), (hover: none) and (pointer: coarse)';

/** What the way back from paying in WeChat adds to this page's address. */
const returnMark = { name: 'from', value: 'wechatpay' } as const;

/** Where a settled order leads back to: what was bought. */
const boughtPath = (order: OrderDetail) => (order.Item.Kind === 'membership' ? '/account/center/steam/cloudidea' : '/recharge/steam');

export default function PayPage({ strings, locale }: Props) {
  const t = translator(strings);
  const query = new URLSearchParams(location.search);
  const key = query.get('key') ?? '';
  const requestedType = query.get('type');
  const returned = query.get(returnMark.name) === returnMark.value;
  const [onPhone] = useState(() => matchMedia(phoneScreen).matches);
  const [order, setOrder] = useState<OrderDetail | null>(null);
  const [missing, setMissing] = useState(false);
  const [payment, setPayment] = useState<Payment | null>(null);
  const [refusal, setRefusal] = useState<PayOutcome | null>(null);
  const [balance, setBalance] = useState<number | null>(null);
  const [now, setNow] = useState(Date.now());
  const cancelDialog = useRef<HTMLDialogElement>(null);
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

  /** Runs a call that starts paying; a refusal that is a payment outcome of its own (maintenance, …) is shown as that outcome. */
  async function starting<T>(work: () => Promise<T>): Promise<T | null | undefined> {
    setRefusal(null);
    return action.run(async () => {
      try {
        return await work();
      } catch (error) {
        const outcome = error instanceof ApiFailure && error.code !== undefined ? outcomeOfRefusal[error.code] : undefined;
        if (!outcome) throw error;
        setRefusal(outcome);
        return null;
      }
    });
  }

  async function pay(method: string): Promise<void> {
    const started = await starting(() => authCall(commerceCalls.pay, { params: { key }, body: { Method: method } }));
    if (!started) return;
    setPayment(started);
    setOrder((current) => (current ? { ...current, ...started.Order } : current));
  }

  /** Opens WeChat Pay's page for paying in WeChat; it sends the customer back here, marked as coming back. */
  async function payInWeChat(): Promise<void> {
    const started = await starting(() => authCall(commerceCalls.payOnPhone, { params: { key } }));
    if (!started) return;
    const back = new URL(location.href);
    back.search = new URLSearchParams({ key, [returnMark.name]: returnMark.value }).toString();
    // WeChat Pay's documented way back: redirect_url, URL-encoded, added to its h5_url.
    location.assign(`${started.H5Url}&redirect_url=${encodeURIComponent(back.href)}`);
  }

  async function cancel(): Promise<void> {
    cancelDialog.current?.close();
    const changed = await action.run(() => authCall(commerceCalls.cancel, { params: { key } }));
    if (changed) setOrder((current) => (current ? { ...current, ...changed } : current));
  }

  /** What the first read of the order starts. */
  function begin(loaded: OrderDetail): void {
    if (loaded.State !== 'created' && loaded.State !== 'paying') return;
    if (requestedType) return void pay(requestedType);
    // The same code again after a reload, where the code leads; on a phone the customer asks for it.
    if (!onPhone && loaded.State === 'paying' && loaded.Method === 'wechatpay') return void pay('wechatpay');
    void authCall(commerceCalls.summary).then(
      (summary) => setBalance(summary.Balance),
      () => {},
    );
  }

  useEffect(() => {
    if (!key) return;
    let begun = false;
    // followOrder says when to read the order, the first time included: one read per page load.
    const stop = followOrder(key, () => {
      void load().then((loaded) => {
        if (!loaded || begun) return;
        begun = true;
        begin(loaded);
      });
    });
    const ticker = setInterval(() => setNow(Date.now()), 1000);
    return () => {
      stop();
      clearInterval(ticker);
    };
  }, []);

  if (!key) return null; // the page's own notice says the parameter is missing
  if (missing)
    return (
      <p className="notice notice-error" role="alert">
        {t('pay.notFound')}
      </p>
    );
  if (!order) return action.notice ? <NoticeLine notice={action.notice} /> : <Loading text={t(returned ? 'pay.checking' : 'common.loading')} />;

  const outcome = order.Outcome ?? refusal;
  const open = (order.State === 'created' || order.State === 'paying') && !outcome;
  const price = formatPrice(order.Price, locale);
  const renewing = order.Agreement !== null;
  // An auto-renewal is signed by scanning its code: it has no payment in WeChat on the phone.
  const phoneFirst = onPhone && !renewing;
  const left = Date.parse(order.ExpiresAt) - now;
  const settled = order.State === 'paid' || order.State === 'fulfilled' || order.State === 'refunded';
  const intro = open ? (phoneFirst ? 'pay.introPhone' : 'pay.intro') : settled ? 'pay.introPaid' : 'pay.introUnpaid';

  const code = payment?.QrSvg && (
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
  );
  const walletButton = !renewing && (
    <>
      <button
        type="button"
        className="button button-secondary"
        disabled={action.busy || (balance !== null && balance < order.Price)}
        onClick={() => void pay('wallet')}
      >
        {t('pay.payWallet', { price })}
      </button>
      {balance !== null && <span className="muted">{t('pay.balance', { balance: formatPrice(balance, locale) })}</span>}
    </>
  );

  return (
    <div className="account-sections" data-pay-order={order.Key} data-state={order.State}>
      <p className="lead" data-pay-intro>
        {t(intro)}
      </p>
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
          <p className={`notice ${outcome === 'successful' ? 'notice-ok' : 'notice-error'}`} role={outcome === 'successful' ? 'status' : 'alert'}>
            {t(`pay.outcome.${outcome}`)}
          </p>
          <div className="form-actions">
            {outcome === 'successful' && (
              <a className="button" href={localizePath(locale, boughtPath(order))} data-bought>
                {t(order.Item.Kind === 'membership' ? 'pay.toCloudIdle' : 'pay.toRecharge')}
              </a>
            )}
            {/* The second payment went to the wallet. */}
            {outcome === 'paidByOther' && (
              <a className="button" href={localizePath(locale, '/account/center/wallet')}>
                {t('pay.toWallet')}
              </a>
            )}
            <a
              className={outcome === 'successful' || outcome === 'paidByOther' ? 'button button-secondary' : 'button'}
              href={localizePath(locale, `/account/center/order/detail?key=${order.Key}`)}
            >
              {t('pay.viewOrder')}
            </a>
            {!settled && (
              <a className="button button-secondary" href={localizePath(locale, boughtPath(order))}>
                {t('pay.newOrder')}
              </a>
            )}
          </div>
        </section>
      )}

      {open && (
        <section className="card" aria-labelledby="pay-how">
          <h2 id="pay-how">{payment?.QrSvg && !phoneFirst ? t(renewing ? 'pay.signScan' : 'pay.scan') : t('pay.choose')}</h2>
          {renewing && <p data-auto-renew>{t('pay.autoRenewNote', { price, period: formatMonths(order.Item.Months ?? 0, locale) })}</p>}
          {returned && (
            <p className="notice notice-info" role="status" data-not-confirmed>
              {t('pay.notConfirmed')}
            </p>
          )}
          {phoneFirst ? (
            <>
              <div className="form-actions">
                <button type="button" className="button pay-in-app" disabled={action.busy} onClick={() => void payInWeChat()}>
                  {t('pay.payInApp')}
                </button>
                {walletButton}
              </div>
              {!code && (
                <p className="muted" data-countdown>
                  {t('pay.expiresIn', { time: clock(left) })}
                </p>
              )}
              <details className="pay-other-device" open={code ? true : undefined}>
                <summary>{t('pay.otherDevice')}</summary>
                {code || (
                  <div className="form-actions">
                    <button type="button" className="button button-secondary" disabled={action.busy} onClick={() => void pay('wechatpay')}>
                      {t('pay.showCodeToScan')}
                    </button>
                  </div>
                )}
              </details>
            </>
          ) : (
            code || (
              <div className="form-actions">
                <button type="button" className="button" disabled={action.busy} onClick={() => void pay('wechatpay')}>
                  {t(renewing ? 'pay.showSignCode' : 'pay.showCode')}
                </button>
                {/* An auto-renewal is signed and charged through the provider's contract: the wallet cannot pay it. */}
                {walletButton}
              </div>
            )
          )}
          <div className="form-actions">
            <button type="button" className="button button-secondary button-small" disabled={action.busy} onClick={() => cancelDialog.current?.showModal()}>
              {t('pay.cancel')}
            </button>
          </div>
          <dialog ref={cancelDialog} className="confirm-dialog" aria-labelledby="pay-cancel-confirm">
            <p id="pay-cancel-confirm">{t('pay.cancelConfirm')}</p>
            <div className="form-actions">
              <button type="button" className="button" onClick={() => void cancel()} data-confirm-cancel>
                {t('pay.cancelYes')}
              </button>
              <button type="button" className="button button-secondary" onClick={() => cancelDialog.current?.close()}>
                {t('pay.cancelNo')}
              </button>
            </div>
          </dialog>
        </section>
      )}
      <NoticeLine notice={action.notice} />
    </div>
  );
}
