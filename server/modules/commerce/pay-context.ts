/**
 * What paying needs: the database, its job queue, the payment providers, asked for only when a step needs it (the sandbox's
 * is made on first use), and where a settled payment is counted (`app.metrics`), once its transaction has committed.
 * Its own file, so payments and agreements, which call each other's steps, both take it without importing each other for it.
 */
import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/database.ts';
import type { Jobs } from '../../db/jobs.ts';
import type { PaymentOutcome } from '../../plugins/metrics.ts';
import type { PaymentProvider, ProviderMethod } from '../../services/payment-provider.ts';
import type { WechatPayProvider } from '../../services/wechatpay-adapter.ts';

export interface PayContext {
  db: Database;
  jobs: Jobs;
  /** A configured provider's adapter; null when it is not configured or cannot be reached yet. */
  provider: (method: ProviderMethod) => PaymentProvider | null;
  /** WeChat Pay's, for auto-renewal contracts (only it has them). */
  contracts: () => WechatPayProvider | null;
  settled: (outcome: PaymentOutcome, method: string | null) => void;
}

/** The context of this app's payments: its database, jobs and providers, counting into its metrics unless told otherwise. */
export function payContextOf(app: FastifyInstance, settled: PayContext['settled'] = app.metrics.paymentSettled): PayContext {
  const { payments } = app;
  return {
    db: app.db,
    jobs: app.jobs,
    provider: (method) => payments.provider(method),
    contracts: () => (payments.methods.includes('wechatpay') ? payments.channel('wechatpay').provider() : null),
    settled,
  };
}
