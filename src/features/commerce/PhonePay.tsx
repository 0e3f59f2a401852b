/**
 * The phone's page after scanning (/wechatpay). The real WeChat Pay
 * code opens in WeChat itself, so a phone that lands here was pointed at the
 * page by mistake and is told to use WeChat. With the development payment
 * sandbox, the code leads here with `?pr=`, and the "customer" approves,
 * declines, lets the payment expire or pays twice — or, for an auto-renewal
 * contract, signs it, makes its later charges fail or ends it; the sandbox
 * then notifies the shop as the provider would.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { formatPrice } from '#contract/facts.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { sandboxEnvironment } from './sandbox-environment.ts';
import { actionsFor, createPhonePay } from './phone-pay-store.ts';
import './PhonePay.css';

interface Props {
  strings: Strings<KeysUnder<'pay' | FailureMessageKey | 'common.loading'>>;
  locale: LocaleCode;
}

const stateKeys = ['NOTPAY', 'SUCCESS', 'CLOSED', 'PAYERROR', 'REFUND', 'NOTSIGNED', 'SIGNED', 'DECLINED', 'TERMINATED'] as const;

export default function PhonePay({ strings, locale }: Props) {
  const t = translator(strings);
  const [phone] = useState(() => createPhonePay(sandboxEnvironment));
  const transaction = useStore(phone.$transaction);
  const done = useStore(phone.$done);
  const busy = useStore(phone.$busy);
  const notice = useStore(phone.$notice);

  if (transaction === undefined) return <Loading text={t('common.loading')} />;
  if (transaction === null) return <p className="notice notice-info">{t('pay.phone.openInWeChat')}</p>;

  const state = stateKeys.find((known) => known === transaction.State);
  const contract = transaction.Kind === 'contract';
  return (
    <div className="card sandbox-pay" data-sandbox-state={transaction.State}>
      <h2>{t('pay.sandbox.title')}</h2>
      <p className="muted">{t('pay.sandbox.intro')}</p>
      {contract && <p>{t('pay.sandbox.contractIntro')}</p>}
      <dl className="facts">
        <div>
          <dt>{t(contract ? 'pay.sandbox.account' : 'pay.item')}</dt>
          <dd>{transaction.Description}</dd>
        </div>
        {!contract && (
          <div>
            <dt>{t('pay.amountDue')}</dt>
            <dd className="pay-amount">{formatPrice(transaction.Total, locale)}</dd>
          </div>
        )}
        <div>
          <dt>{t(contract ? 'pay.agreementNumber' : 'pay.orderNumber')}</dt>
          <dd className="order-key">{transaction.OrderKey}</dd>
        </div>
      </dl>
      <p role="status">{t('pay.sandbox.state', { state: state ? t(`pay.sandbox.state.${state}`) : transaction.State })}</p>
      <div className="sandbox-actions">
        {actionsFor(transaction).map((chosen) => (
          <button
            key={chosen}
            type="button"
            className={chosen === 'approve' ? 'button' : 'button button-secondary'}
            disabled={busy}
            onClick={() => void phone.act(chosen)}
          >
            {t(contract && chosen === 'approve' ? 'pay.sandbox.sign' : `pay.sandbox.${chosen}`)}
          </button>
        ))}
      </div>
      {done && !notice && <p className="notice notice-ok">{t('pay.sandbox.done')}</p>}
      <NoticeLine notice={notice} t={t} />
    </div>
  );
}
