/**
 * The pay page's island (/payment, which needs its key
 * parameter): the order's item, amount and number, the ways to pay it that
 * the server offers (`PayWith`: WeChat Pay, Alipay, the wallet), and the
 * outcome as soon as the server knows it — pushed through the hub, or asked
 * for every few seconds while the hub cannot connect. On a computer a code to
 * scan for each provider leads, and the customer may switch from one's code to
 * another's; on a phone (or a touch screen) "Pay in WeChat" / "Pay in Alipay"
 * lead, which come back here with `?from=<method>` — and coming back proves
 * nothing: the page says it is checking, and only the server's word on the
 * order shows a payment. `?type=` (from the desktop client) starts paying with
 * that method at once.
 */
import { useStore } from '@nanostores/react';
import { useRef, useState } from 'react';
import { formatMonths, formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { hasReceipt, itemText } from '@/lib/order-text.ts';
import { payEnvironment } from './pay-environment.ts';
import { boughtPath, createPayPage, isProvider, type PayProvider } from './pay-store.ts';
import './PayPage.css';

interface Props {
  strings: Strings<KeysUnder<'pay' | 'account.order.item' | FailureMessageKey | 'common.loading'>>;
  locale: LocaleCode;
}

const clock = (ms: number) => {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
};

export default function PayPage({ strings, locale }: Props) {
  const t = translator(strings);
  const [page] = useState(() => createPayPage(payEnvironment));
  const { key, returned } = page;
  const order = useStore(page.$order);
  const missing = useStore(page.$missing);
  const payment = useStore(page.$payment);
  const view = useStore(page.$view);
  const balance = useStore(page.$balance);
  const busy = useStore(page.$busy);
  const notice = useStore(page.$notice);
  const cancelDialog = useRef<HTMLDialogElement>(null);

  async function cancel(): Promise<void> {
    cancelDialog.current?.close();
    await page.cancel();
  }

  if (!key) return null; // the page's own notice says the parameter is missing
  if (missing)
    return (
      <p className="notice notice-error" role="alert">
        {t('pay.notFound')}
      </p>
    );
  if (!order || !view) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t(returned ? 'pay.checking' : 'common.loading')} />;

  const { outcome, open, settled, renewing, providers, phoneFirst, intro, leftMs: left } = view;
  const price = formatPrice(order.Price, locale);
  /** The provider whose code is shown, if one is. */
  const scanning = payment?.QrSvg && isProvider(payment.Order.Method) ? payment.Order.Method : null;
  /** The providers whose code is not shown: what the customer may switch to. */
  const others = providers.filter((method) => method !== scanning);

  /** A button per provider that shows its code to scan (an auto-renewal's: the contract to sign): leading ways where no code is shown yet, the way to switch under one. */
  const codeButtons = (methods: PayProvider[], lead: boolean) =>
    methods.map((method) => (
      <button key={method} type="button" className={lead ? 'button' : 'button button-secondary'} disabled={busy} onClick={() => void page.pay(method)}>
        {t(renewing ? 'pay.showSignCode' : `pay.showCode.${method}`)}
      </button>
    ));
  const code = payment?.QrSvg && scanning && (
    <div className="pay-code" data-code={scanning}>
      <img src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(payment.QrSvg)}`} alt={t('pay.qrLabel', { price })} width={220} height={220} />
      <p className="muted">{t(`pay.scanHint.${scanning}`)}</p>
      <p role="status" aria-live="polite">
        {t('pay.waiting')}
      </p>
      <p className="muted" data-countdown>
        {t('pay.expiresIn', { time: clock(left) })}
      </p>
    </div>
  );
  const walletButton = view.wallet && (
    <>
      <button type="button" className="button button-secondary" disabled={busy || view.balanceShort} onClick={() => void page.pay('wallet')}>
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
            {outcome === 'successful' && hasReceipt(order) && (
              <a className="button button-secondary" href={`${localizePath(locale, '/account/center/order/receipt')}?key=${order.Key}`} data-receipt-link>
                {t('pay.receipt')}
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
          <h2 id="pay-how">{scanning && !phoneFirst ? t(renewing ? 'pay.signScan' : `pay.scan.${scanning}`) : t('pay.choose')}</h2>
          {renewing && <p data-auto-renew>{t('pay.autoRenewNote', { price, period: formatMonths(order.Item.Months ?? 0, locale) })}</p>}
          {returned && (
            <p className="notice notice-info" role="status" data-not-confirmed>
              {t(`pay.notConfirmed.${returned}`)}
            </p>
          )}
          {phoneFirst ? (
            <>
              <div className="form-actions">
                {providers.map((method) => (
                  <button key={method} type="button" className="button pay-in-app" disabled={busy} onClick={() => void page.payInApp(method)}>
                    {t(`pay.payInApp.${method}`)}
                  </button>
                ))}
                {walletButton}
              </div>
              {!code && (
                <p className="muted" data-countdown>
                  {t('pay.expiresIn', { time: clock(left) })}
                </p>
              )}
              <details className="pay-other-device" open={code ? true : undefined}>
                <summary>{t('pay.otherDevice')}</summary>
                {code}
                {/* The wallet is offered above already; here, the other provider's code. */}
                {others.length > 0 && <div className="form-actions">{codeButtons(others, false)}</div>}
              </details>
            </>
          ) : code ? (
            <>
              {code}
              {/* Switching: the other provider's code, or the wallet, while the order is unpaid. */}
              {(others.length > 0 || walletButton) && (
                <div className="form-actions">
                  {codeButtons(others, false)}
                  {walletButton}
                </div>
              )}
            </>
          ) : (
            <div className="form-actions">
              {codeButtons(providers, true)}
              {/* An auto-renewal is signed and charged through WeChat Pay's contract: the wallet cannot pay it (the server offers no wallet). */}
              {walletButton}
            </div>
          )}
          <div className="form-actions">
            <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => cancelDialog.current?.showModal()}>
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
      <NoticeLine notice={notice} t={t} />
    </div>
  );
}
