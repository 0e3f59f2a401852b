/**
 * A paid order's receipt (account centre `order/receipt?key=`): the seller as
 * the settings name them, what was bought, the amount paid, how and when, and
 * the order's and the payment service's numbers. The print stylesheet
 * (ReceiptView.css) leaves only the receipt, black on white, on one A4 page.
 */
import { useStore } from '@nanostores/react';
import { useState, type ReactNode } from 'react';
import { formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { itemText } from '@/lib/order-text.ts';
import { centerEnvironment } from './center-environment.ts';
import { createReceipt } from './receipt-store.ts';
import './ReceiptView.css';

interface Props {
  strings: Strings<KeysUnder<'account.receipt' | 'account.order.item' | 'pay.method' | FailureMessageKey | 'common.loading'>>;
  locale: LocaleCode;
}

/** One line of the receipt: its name, and its value. */
const Line = ({ name, children }: { name: string; children: ReactNode }) => (
  <div>
    <dt>{name}</dt>
    <dd>{children}</dd>
  </div>
);

export default function ReceiptView({ strings, locale }: Props) {
  const t = translator(strings);
  const [store] = useState(() => createReceipt(centerEnvironment));
  const receipt = useStore(store.$receipt);
  const missing = useStore(store.$missing);
  const notice = useStore(store.$notice);

  const orderPath = store.key ? `/account/center/order/detail?key=${store.key}` : '/account/center/order';
  const back = (
    <p className="receipt-actions">
      <a href={localizePath(locale, orderPath)}>{t('account.receipt.back')}</a>
    </p>
  );
  if (missing)
    return (
      <>
        <NoticeLine notice={{ kind: 'error', key: missing }} t={t} />
        {back}
      </>
    );
  if (!receipt) return notice ? <NoticeLine notice={notice} t={t} /> : <Loading text={t('common.loading')} />;

  const { Seller: seller } = receipt;
  return (
    <div className="receipt-page">
      <article className="card receipt" aria-labelledby="receipt-seller" data-receipt={receipt.Key}>
        <header className="receipt-seller">
          <p className="muted">{t('account.receipt.seller')}</p>
          <h2 id="receipt-seller">{seller.Name}</h2>
          <dl>
            {seller.Address && <Line name={t('account.receipt.sellerAddress')}>{seller.Address}</Line>}
            {seller.TaxId && <Line name={t('account.receipt.sellerTaxId')}>{seller.TaxId}</Line>}
            {seller.Contact && <Line name={t('account.receipt.sellerContact')}>{seller.Contact}</Line>}
          </dl>
        </header>
        <dl className="receipt-lines">
          <Line name={t('account.receipt.item')}>{itemText(receipt.Item, locale, t)}</Line>
          <Line name={t('account.receipt.price')}>
            <strong className="pay-amount" data-receipt-price>
              {formatPrice(receipt.Price, locale)}
            </strong>
          </Line>
          {receipt.Refunded > 0 && (
            <Line name={t('account.receipt.refunded')}>
              <span data-receipt-refunded>{formatPrice(receipt.Refunded, locale)}</span>
            </Line>
          )}
          <Line name={t('account.receipt.method')}>
            <span data-receipt-method>{t(`pay.method.${receipt.Method}`)}</span>
          </Line>
          <Line name={t('account.receipt.paidAt')}>
            <time dateTime={receipt.PaidAt}>{formatDateTime(receipt.PaidAt, locale)}</time>
          </Line>
          <Line name={t('account.receipt.order')}>
            <span className="order-key" data-receipt-order>
              {receipt.Key}
            </span>
          </Line>
          {receipt.Transaction && (
            <Line name={t('account.receipt.transaction')}>
              <span className="order-key" data-receipt-transaction>
                {receipt.Transaction}
              </span>
            </Line>
          )}
        </dl>
        <p className="muted receipt-note">{t('account.receipt.notInvoice')}</p>
      </article>
      <div className="form-actions receipt-actions">
        <button type="button" className="button" onClick={() => window.print()}>
          {t('account.receipt.print')}
        </button>
        <a className="button button-secondary" href={localizePath(locale, orderPath)}>
          {t('account.receipt.back')}
        </a>
      </div>
    </div>
  );
}
