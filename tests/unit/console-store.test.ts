/**
 * The console's stores in Node (src/features/console): the sign-in's steps
 * from what the server says of the customer, the CSRF value on every console
 * call, the way back to sign-in when the console session is over, and the
 * customers and orders areas built from the operators' commands.
 */
import { describe, expect, it } from 'vitest';
import type { CommandResult } from '#contract/admin.ts';
import type { ApiRoute } from '#contract/api.ts';
import { consoleCalls, consoleCsrfHeader, type ConsoleSession } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { createConsole } from '@/features/console/console-store.ts';
import { createCustomers } from '@/features/console/customers-store.ts';
import { createOrders, leftToRefund, noFilter } from '@/features/console/orders-store.ts';
import type { Call } from '@/lib/api/client.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

const session: ConsoleSession = { UserId: 3, Nickname: 'Ops', Role: 'support', Csrf: 'csrf-value', ExpiresAt: 0 };
const over = () => new ApiFailure('server', { code: ErrorCode.ConsoleSignIn, serverMessage: 'Please sign in to the console again.' });

interface Sent {
  route: ApiRoute;
  body?: unknown;
  headers?: Record<string, string>;
  asCustomer: boolean;
}

/** A console over answers given per route (a value, or a function that may throw), recording every call. */
function world(replies: Map<ApiRoute, (body: unknown) => unknown>, loggedIn = true) {
  const sent: Sent[] = [];
  const caller =
    (asCustomer: boolean): Call =>
    async (route, options) => {
      sent.push({ route, body: options?.body, headers: options?.headers, asCustomer });
      const reply = replies.get(route);
      if (!reply) throw new Error(`unexpected call ${route.path}`);
      return reply(options?.body) as never;
    };
  return { sent, console: createConsole({ call: caller(false), authCall: caller(true), isLoggedIn: () => loggedIn }) };
}

describe('signing in to the console', () => {
  it('asks a visitor to log in first, without a call', async () => {
    const { sent, console } = world(new Map(), false);
    await console.check();
    expect(console.$step.get()).toEqual({ step: 'login' });
    expect(sent).toEqual([]);
  });

  it('goes straight in with an open console session', async () => {
    const { console } = world(new Map([[consoleCalls.session, () => session]]));
    await console.check();
    expect(console.$step.get()).toEqual({ step: 'ready' });
    expect(console.$session.get()).toEqual(session);
  });

  it('tells a customer without a role so, and asks an enrolled operator for a code', async () => {
    for (const [access, step] of [
      [{ Role: null, Enrolled: false }, 'noRole'],
      [{ Role: 'support', Enrolled: true }, 'signIn'],
    ] as const) {
      const { console } = world(
        new Map<ApiRoute, (body: unknown) => unknown>([
          [
            consoleCalls.session,
            () => {
              throw over();
            },
          ],
          [consoleCalls.access, () => access],
        ]),
      );
      await console.check();
      expect(console.$step.get()).toEqual({ step });
      expect(console.$notice.get()).toBeNull();
    }
  });

  it('sets up an authenticator, shows the recovery codes, then the console', async () => {
    const { sent, console } = world(
      new Map<ApiRoute, (body: unknown) => unknown>([
        [
          consoleCalls.session,
          () => {
            throw over();
          },
        ],
        [consoleCalls.access, () => ({ Role: 'admin', Enrolled: false })],
        [consoleCalls.enrol, () => ({ Secret: 'ABCDEFGH', Uri: 'otpauth://…', QrSvg: '<svg/>' })],
        [consoleCalls.confirm, () => ({ RecoveryCodes: ['AAAA-BBBB'], Session: session })],
      ]),
    );
    await console.check();
    expect(console.$step.get()).toEqual({ step: 'enrol', secret: 'ABCDEFGH', qrSvg: '<svg/>' });
    await console.confirmEnrolment(' 123 456 ');
    expect(sent.at(-1)).toMatchObject({ route: consoleCalls.confirm, body: { Code: '123456' }, asCustomer: true });
    expect(console.$step.get()).toEqual({ step: 'recoveryCodes', codes: ['AAAA-BBBB'] });
    console.recoveryCodesKept();
    expect(console.$step.get()).toEqual({ step: 'ready' });
  });

  it('takes six digits as the app’s code and anything else as a recovery code', async () => {
    const { sent, console } = world(new Map([[consoleCalls.signIn, () => session]]));
    await console.signIn('654 321');
    await console.signIn(' abcd-efgh-jkmn-pqrs-tuvw ');
    expect(sent.map((call) => call.body)).toEqual([{ Code: '654321' }, { RecoveryCode: 'abcd-efgh-jkmn-pqrs-tuvw' }]);
  });

  it('shows the server’s words for a wrong code and stays at the step', async () => {
    const { console } = world(
      new Map([
        [
          consoleCalls.signIn,
          () => {
            throw new ApiFailure('server', { code: ErrorCode.ConsoleCodeInvalid, serverMessage: 'That code is wrong.' });
          },
        ],
      ]),
    );
    console.$step.set({ step: 'signIn' });
    await console.signIn('000000');
    expect(console.$step.get()).toEqual({ step: 'signIn' });
    expect(console.$notice.get()).toEqual({ kind: 'error', text: 'That code is wrong.' });
  });
});

describe('console calls', () => {
  it('carry the session’s CSRF value, and go back to sign-in when the session is over', async () => {
    let ended = false;
    const { sent, console } = world(
      new Map<ApiRoute, (body: unknown) => unknown>([
        [consoleCalls.signIn, () => session],
        [
          consoleCalls.run,
          () => {
            if (ended) throw over();
            return { command: 'maintenance status', maintenance: false };
          },
        ],
      ]),
    );
    await console.signIn('123456');
    expect(await console.run(['maintenance', 'status'])).toEqual({ command: 'maintenance status', maintenance: false });
    expect(sent.at(-1)).toMatchObject({
      route: consoleCalls.run,
      body: { Command: ['maintenance', 'status'] },
      headers: { [consoleCsrfHeader]: 'csrf-value' },
      asCustomer: false,
    });
    ended = true;
    await expect(console.run(['maintenance', 'status'])).rejects.toBeInstanceOf(ApiFailure);
    expect(console.$step.get()).toEqual({ step: 'signIn' });
    expect(console.$session.get()).toBeNull();
  });
});

/** A stand-in for `run`: answers per command name, recording the words. */
function commands(answers: Record<string, (words: string[]) => unknown>) {
  const ran: string[][] = [];
  const run = async (words: string[]) => {
    ran.push(words);
    const answer = answers[words.slice(0, 2).join(' ')];
    if (!answer) throw new Error(`unexpected command ${words.join(' ')}`);
    return answer(words) as CommandResult;
  };
  return { ran, run: run as never };
}

const user = {
  id: 9,
  phone: '+8613800000009',
  email: null,
  nickname: 'Buyer',
  hasPassword: false,
  createdAt: '',
  externalAccounts: [],
  activeSessions: [],
  loginHistory: [],
};
const order = {
  Key: '20261128000000000001',
  State: 'paid' as const,
  Outcome: 'successful' as const,
  Item: { Kind: 'steamRecharge' as const, Product: 'steam-cn', Months: null, Amount: 5000, Currency: 'CNY', RatePpm: null, SteamId: '1' },
  Price: 5000,
  Method: 'wallet' as const,
  CreatedAt: '',
  ExpiresAt: '',
  Agreement: null,
  UserId: 9,
};

describe('the customers area', () => {
  it('finds a customer, then reads their wallet and orders by their id', async () => {
    const { ran, run } = commands({
      'users show': () => ({ command: 'users show', key: 'x', user }),
      'wallet show': () => ({ command: 'wallet show', key: '9', userId: 9, wallet: { balance: 0, ledger: [], planUntil: null } }),
      'order list': () => ({ command: 'order list', orders: [order] }),
    });
    const customers = createCustomers(run);
    await customers.find(' 20261128000000000001 ');
    expect(ran).toEqual([
      ['users', 'show', '20261128000000000001'],
      ['wallet', 'show', '9'],
      ['order', 'list', '--user', '9'],
    ]);
    expect(customers.$customer.get()).toMatchObject({ user: { id: 9 }, orders: [{ Key: order.Key }] });
  });

  it('says so when nobody matches, and asks nothing for an empty search', async () => {
    const { ran, run } = commands({ 'users show': () => ({ command: 'users show', key: 'nobody', user: null }) });
    const customers = createCustomers(run);
    await customers.find('   ');
    expect(ran).toEqual([]);
    await customers.find('nobody');
    expect(customers.$customer.get()).toBeNull();
    expect(customers.$notice.get()).toEqual({ kind: 'error', key: 'console.customers.notFound', params: { query: 'nobody' } });
  });
});

describe('the orders area', () => {
  it('says a refund to the original payment waits for WeChat Pay, and counts what is left to refund', async () => {
    const pending = { refundNo: `${order.Key}R2`, amount: 2000, to: 'original' as const, state: 'pending' as const, actor: 'ops', at: '', settledAt: null };
    const failed = { ...pending, refundNo: `${order.Key}R1`, amount: 1000, state: 'failed' as const };
    const { run } = commands({
      'order show': () => ({ command: 'order show', key: order.Key, order: { ...order, Timeline: [], Refunds: [failed, pending] } }),
      'order refund': () => ({ command: 'order refund', key: order.Key, order, refund: pending, refused: null, pushed: true }),
    });
    const orders = createOrders(run);
    await orders.show(order.Key);
    expect(leftToRefund(orders.$order.get()!)).toBe(3000);
    await orders.refund({ amount: 2000, to: 'original' });
    expect(orders.orderOutcome.$notice.get()).toEqual({ kind: 'ok', key: 'console.orders.refundPending' });
  });

  it('lists by the filter’s words, and refunds the order shown, then shows it as it is now', async () => {
    let state: 'paid' | 'refunded' = 'paid';
    const { ran, run } = commands({
      'order list': () => ({ command: 'order list', orders: [order] }),
      'order show': () => ({ command: 'order show', key: order.Key, order: { ...order, State: state, Timeline: [], Refunds: [] } }),
      'order refund': () => {
        state = 'refunded';
        return { command: 'order refund', key: order.Key, order, refund: { state: 'succeeded' }, refused: null, pushed: true };
      },
    });
    const orders = createOrders(run);
    await orders.list(noFilter);
    await orders.list({ state: 'paid', method: 'wallet', user: ' 9 ' });
    expect(ran).toEqual([
      ['order', 'list'],
      ['order', 'list', '--state', 'paid', '--method', 'wallet', '--user', '9'],
    ]);
    await orders.show(order.Key);
    await orders.refund({ amount: 5000, to: 'wallet' });
    expect(ran.at(-2)).toEqual(['order', 'refund', order.Key, '--amount', '5000', '--to', 'wallet']);
    expect(orders.$order.get()?.State).toBe('refunded');
    expect(orders.orderOutcome.$notice.get()).toEqual({ kind: 'ok', key: 'console.orders.refunded' });
  });

  it('shows a refusal in the operator’s words and leaves the order as it was', async () => {
    const { run } = commands({
      'order show': () => ({ command: 'order show', key: order.Key, order: { ...order, Timeline: [], Refunds: [] } }),
      'order refund': () => ({
        command: 'order refund',
        key: order.Key,
        order: null,
        refund: null,
        refused: 'Your role may refund at most CN¥100.',
        pushed: false,
      }),
    });
    const orders = createOrders(run);
    await orders.show(order.Key);
    await orders.refund({ amount: 5000, to: 'original' });
    expect(orders.$order.get()?.State).toBe('paid');
    expect(orders.orderOutcome.$notice.get()).toEqual({
      kind: 'error',
      key: 'console.orders.refusedBecause',
      params: { reason: 'Your role may refund at most CN¥100.' },
    });
  });
});
