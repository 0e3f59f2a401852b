/**
 * A crash in the middle of paying: the real server (`node server/main.ts`, on
 * embedded PGlite in a folder, with the payment sandboxes) takes a burst of
 * WeChat Pay and Alipay scan-to-pay and wallet payments and is killed with SIGKILL; after a restart
 * on the same folder, every payment it acknowledged is there, and none twice.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { alipaySandbox, paymentSandbox } from '#contract/dev.ts';
import { facts } from '#contract/facts.ts';
import { identity } from '#contract/identity.ts';
import { demoAccount } from '../../server/services/demo-account.ts';
import { httpCaller } from './api/harness.ts';
import { runServer } from './server-process.ts';

const dataDir = mkdtempSync(path.join(tmpdir(), 'beacon-crash-'));
const env = {
  DATA_DIR: dataDir,
  DATABASE_URL: `file://${path.join(dataDir, 'db')}`,
  DEMO_DATA: 'true',
  LOG_LEVEL: 'error',
  // Every call of the burst comes from loopback.
  RATE_LIMIT_PER_MINUTE: '1000000',
  IDENTITY_RATE_LIMIT_PER_MINUTE: '1000',
};
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

type Call = Awaited<ReturnType<typeof httpCaller>>;
const methods = ['wallet', 'wechatpay', 'alipay'] as const;
type Method = (typeof methods)[number];

async function logIn(call: Call): Promise<string> {
  const login = await call(identity.loginByPassword, { body: { Account: demoAccount.phone, Password: demoAccount.password, DeviceId: 'crash-test-device' } });
  expect(login.body.code).toBe(200);
  return login.body.data.AccessToken;
}

describe('a server killed during a burst of payments', () => {
  it('keeps every acknowledged payment after a restart, and doubles none', { timeout: 120_000 }, async () => {
    const first = await runServer(env);
    const call = await httpCaller(`http://127.0.0.1:${await first.listening()}`);
    const token = await logIn(call);

    /** Orders the server said were paid before it died, and how. */
    const acknowledged = new Map<string, Method>();
    let killed = false;
    const buy = async (method: Method): Promise<void> => {
      // The demo wallet holds enough for some of the smallest recharges.
      const amount = method === 'wallet' ? facts.recharge.customMin.cny : facts.recharge.amounts[0].cny;
      const created = await call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: amount, Target: '12345678' } });
      const key = (created.body.data as Order).Key;
      const paying = await call(commerceCalls.pay, { token, params: { key }, body: { Method: method } });
      if (method === 'wallet') {
        if (paying.body.code === 200) acknowledged.set(key, method);
        return;
      }
      if (method === 'alipay') {
        await call(alipaySandbox.act, { params: { id: key }, body: { Action: 'scan' } });
        await call(alipaySandbox.act, { params: { id: key }, body: { Action: 'approve' } });
      } else {
        const prepay = new URL(paying.body.data.CodeUrl!).searchParams.get('pr')!;
        await call(paymentSandbox.act, { params: { id: prepay }, body: { Action: 'approve' } });
      }
      // Paid is what the server answers once it has applied the payment.
      if ((await call(commerceCalls.order, { token, params: { key } })).body.data.State === 'paid') acknowledged.set(key, method);
    };
    const worker = async (index: number) => {
      for (let round = 0; !killed; round++) {
        await buy(methods[(index + round) % methods.length]).catch(() => {});
      }
    };
    const burst = Promise.all(Array.from({ length: 12 }, (_, index) => worker(index)));
    await expect.poll(() => acknowledged.size, { timeout: 30_000 }).toBeGreaterThanOrEqual(30);
    first.child.kill('SIGKILL');
    killed = true;
    await first.exit;
    await burst;

    const second = await runServer(env);
    try {
      const after = await httpCaller(`http://127.0.0.1:${await second.listening()}`);
      const again = await logIn(after);
      for (const [key, method] of acknowledged) {
        const order = (await after(commerceCalls.order, { token: again, params: { key } })).body.data;
        expect(order, key).toMatchObject({ State: 'paid', Method: method });
        expect(
          order.Timeline.filter((event) => event.State === 'paid'),
          key,
        ).toHaveLength(1);
      }
      // The wallet: its balance is its ledger's sum, and each wallet-paid order is in it once.
      const entries = [];
      let balance = 0;
      for (let page = 1; ; page++) {
        const wallet = (await after(commerceCalls.wallet, { token: again, params: { page } })).body.data;
        balance = wallet.Balance;
        entries.push(...wallet.Items);
        if (entries.length >= wallet.Total) break;
      }
      expect(entries.reduce((sum, entry) => sum + entry.Delta, 0)).toBe(balance);
      const payments = entries.filter((entry) => entry.Reason === 'payment').map((entry) => entry.Order);
      expect(new Set(payments).size).toBe(payments.length);
      for (const [key, method] of acknowledged) if (method === 'wallet') expect(payments).toContain(key);
      const byMethod = [...acknowledged.values()];
      console.log(
        `kill -9: ${acknowledged.size} payments acknowledged before the kill (${methods.map((m) => `${byMethod.filter((b) => b === m).length} ${m}`).join(', ')}), all there after the restart, none twice`,
      );
    } finally {
      second.child.kill('SIGTERM');
      await second.exit;
    }
  });
});
