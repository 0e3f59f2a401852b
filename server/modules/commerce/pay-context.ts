/**
 * What paying needs: the database, its job queue, the payment provider, asked for only when a step needs it (the sandbox's
 * is made on first use), and where a settled payment is counted (`app.metrics`), once its transaction has committed.
 * Its own file, so payments and agreements, which call each other's steps, both take it without importing each other for it.
 */
import type { Database } from '../../db/database.ts';
import type { Jobs } from '../../db/jobs.ts';
import type { PaymentOutcome } from '../../plugins/metrics.ts';
import type { PaymentProvider } from '../../services/wechatpay-adapter.ts';

export interface PayContext {
  db: Database;
  jobs: Jobs;
  provider: () => PaymentProvider | null;
  settled: (outcome: PaymentOutcome, method: string | null) => void;
}
