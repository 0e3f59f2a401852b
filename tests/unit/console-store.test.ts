/**
 * The console's stores in Node (src/features/console): the sign-in's steps
 * from what the server says of the customer, the CSRF value on every console
 * call, the way back to sign-in when the console session is over, and the
 * customers and orders areas built from the operators' commands (with the
 * refunds that need attention and their resolving).
 */
import { describe, expect, it } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import type { ApiRoute } from '#contract/api.ts';
import { commerceCommands } from '#contract/commands/commerce.ts';
import { consoleCalls, consoleCsrfHeader, type ConsoleSession } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { createConsole, type RunCommand } from '@/features/console/console-store.ts';
import { createCustomers } from '@/features/console/customers-store.ts';
import { auditList, createAudit } from '@/features/console/audit-store.ts';
import { createArgs, createCdkeys, emptyBatch } from '@/features/console/cdkeys-store.ts';
import { createOrders, leftToRefund, ordersList } from '@/features/console/orders-store.ts';
import { createRaffles, definitionTemplate } from '@/features/console/raffles-store.ts';
import { createReviews, reviewsList } from '@/features/console/reviews-store.ts';
import { createStatusBoard, statusArgs } from '@/features/console/status-store.ts';
import type { Call } from '@/lib/api/client.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

/** The fake clock the console store reads. */
const clock = Date.parse('2026-11-28T09:00:00Z');
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
  return { sent, console: createConsole({ call: caller(false), authCall: caller(true), isLoggedIn: () => loggedIn, now: () => clock }) };
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
      [{ Role: null, Enrolled: false, EnrolTo: null, LockedUntil: null }, 'noRole'],
      [{ Role: 'support', Enrolled: true, EnrolTo: null, LockedUntil: null }, 'signIn'],
      [{ Role: 'support', Enrolled: false, EnrolTo: null, LockedUntil: null }, 'noContact'],
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

  it('sends a code to the operator’s own phone first, takes it, then sets up an authenticator, shows the recovery codes, then the console', async () => {
    const to = { Channel: 'sms', To: '138****0000' } as const;
    const { sent, console } = world(
      new Map<ApiRoute, (body: unknown) => unknown>([
        [
          consoleCalls.session,
          () => {
            throw over();
          },
        ],
        [consoleCalls.access, () => ({ Role: 'admin', Enrolled: false, EnrolTo: to, LockedUntil: null })],
        [accountCalls.sendOwnCode, () => null],
        [
          consoleCalls.enrol,
          (body) => {
            if ((body as { Code: string }).Code !== '246810') throw new ApiFailure('server', { code: ErrorCode.CodeInvalid, serverMessage: 'Wrong code.' });
            return { Secret: 'ABCDEFGH', Uri: 'otpauth://…', QrSvg: '<svg/>' };
          },
        ],
        [consoleCalls.confirm, () => ({ RecoveryCodes: ['AAAA-BBBB'], Session: session })],
      ]),
    );
    await console.check();
    // Nothing is enrolled on opening the page: the operator asks for the code.
    expect(console.$step.get()).toEqual({ step: 'enrolSend', to });
    expect(sent.map((call) => call.route)).toEqual([consoleCalls.session, consoleCalls.access]);
    await console.sendEnrolCode();
    expect(sent.at(-1)).toMatchObject({ route: accountCalls.sendOwnCode, body: { Channel: 'sms' }, asCustomer: true });
    expect(console.$step.get()).toEqual({ step: 'enrolCode', to });
    await console.enrol('111111');
    expect(console.$step.get()).toEqual({ step: 'enrolCode', to });
    expect(console.$notice.get()).toEqual({ kind: 'error', text: 'Wrong code.' });
    await console.sendEnrolCode();
    expect(sent.filter((call) => call.route === accountCalls.sendOwnCode)).toHaveLength(2);
    await console.enrol(' 246 810 ');
    expect(sent.at(-1)).toMatchObject({ route: consoleCalls.enrol, body: { Code: '246810' }, asCustomer: true });
    expect(console.$step.get()).toEqual({ step: 'enrol', secret: 'ABCDEFGH', qrSvg: '<svg/>' });
    await console.confirmEnrolment(' 123 456 ');
    expect(sent.at(-1)).toMatchObject({ route: consoleCalls.confirm, body: { Code: '123456' }, asCustomer: true });
    expect(console.$step.get()).toEqual({ step: 'recoveryCodes', codes: ['AAAA-BBBB'] });
    console.recoveryCodesKept();
    expect(console.$step.get()).toEqual({ step: 'ready' });
  });

  it('shows a sign-in locked by wrong codes until when, on opening and on a refused code, and checks again on request', async () => {
    const lockedUntil = clock + 600_000;
    let access = { Role: 'support', Enrolled: true, EnrolTo: null, LockedUntil: lockedUntil as number | null };
    const { console } = world(
      new Map<ApiRoute, (body: unknown) => unknown>([
        [
          consoleCalls.session,
          () => {
            throw over();
          },
        ],
        [consoleCalls.access, () => access],
        [
          consoleCalls.signIn,
          () => {
            throw new ApiFailure('tooManyRequests', { code: ErrorCode.ConsoleLocked, serverMessage: 'Locked.', retryAfterMs: 900_000 });
          },
        ],
        [
          consoleCalls.confirm,
          () => {
            throw new ApiFailure('tooManyRequests', { code: ErrorCode.ConsoleLocked, serverMessage: 'Locked.', retryAfterMs: 60_000 });
          },
        ],
      ]),
    );
    await console.check();
    expect(console.$step.get()).toEqual({ step: 'locked', until: lockedUntil });

    access = { ...access, LockedUntil: null };
    await console.check();
    expect(console.$step.get()).toEqual({ step: 'signIn' });
    await console.signIn('000000');
    expect(console.$step.get()).toEqual({ step: 'locked', until: clock + 900_000 });
    expect(console.$notice.get()).toBeNull();
    await console.confirmEnrolment('000000');
    expect(console.$step.get()).toEqual({ step: 'locked', until: clock + 60_000 });
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
    expect(await console.run(commerceCommands.maintenanceStatus, {})).toEqual({ command: 'maintenance status', maintenance: false });
    expect(sent.at(-1)).toMatchObject({
      route: consoleCalls.run,
      body: { Command: 'maintenance status', Args: {} },
      headers: { [consoleCsrfHeader]: 'csrf-value' },
      asCustomer: false,
    });
    ended = true;
    await expect(console.run(commerceCommands.maintenanceStatus, {})).rejects.toBeInstanceOf(ApiFailure);
    expect(console.$step.get()).toEqual({ step: 'signIn' });
    expect(console.$session.get()).toBeNull();
  });
});

/** A stand-in for `run`: answers per command name, recording each command's name and arguments. */
function commands(answers: Record<string, (args: Record<string, unknown>) => unknown>) {
  const ran: Array<{ command: string; args: unknown }> = [];
  const run: RunCommand = async (command, args) => {
    ran.push({ command: command.name, args });
    const answer = answers[command.name];
    if (!answer) throw new Error(`unexpected command ${command.name}`);
    return answer(args as Record<string, unknown>) as never;
  };
  return { ran, run };
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
      'order list': () => ({ command: 'order list', rows: [order], total: 1, page: 1, size: 25 }),
      'cdkey redeemed': () => ({ command: 'cdkey redeemed', key: '9', userId: 9, redemptions: [] }),
      'raffle entered': () => ({ command: 'raffle entered', key: '9', userId: 9, entries: [] }),
    });
    const customers = createCustomers(run);
    await customers.find(' 20261128000000000001 ');
    expect(ran).toEqual([
      { command: 'users show', args: { user: '20261128000000000001' } },
      { command: 'wallet show', args: { user: '9' } },
      { command: 'order list', args: { user: '9' } },
      { command: 'cdkey redeemed', args: { user: '9' } },
      { command: 'raffle entered', args: { user: '9' } },
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

  it('lists by the filter’s arguments, and refunds the order shown, then shows it as it is now', async () => {
    let state: 'paid' | 'refunded' = 'paid';
    const { ran, run } = commands({
      'order list': () => ({ command: 'order list', rows: [order], total: 1, page: 1, size: 25 }),
      'order show': () => ({ command: 'order show', key: order.Key, order: { ...order, State: state, Timeline: [], Refunds: [] } }),
      'order refund': () => {
        state = 'refunded';
        return { command: 'order refund', key: order.Key, order, refund: { state: 'succeeded' }, refused: null, pushed: true };
      },
    });
    const orders = createOrders(run);
    const query = ordersList.start.query;
    await orders.list(ordersList.start);
    await orders.list({
      query: { ...query, sort: 'price', dir: 'asc', page: 2 },
      filter: { ...ordersList.start.filter, state: 'paid', method: 'wallet', user: ' 9 ', number: ' 2026 ', since: '2026-11-01' },
    });
    // What the form leaves empty is not sent; the sort and page are.
    expect(JSON.parse(JSON.stringify(ran))).toStrictEqual([
      { command: 'order list', args: query },
      {
        command: 'order list',
        args: { ...query, sort: 'price', dir: 'asc', page: 2, state: 'paid', method: 'wallet', user: '9', key: '2026', since: '2026-11-01' },
      },
    ]);
    expect(orders.$orders.get()).toEqual({ rows: [order], total: 1, page: 1, size: 25 });
    await orders.show(order.Key);
    await orders.refund({ amount: 5000, to: 'wallet' });
    expect(ran.at(-2)).toEqual({ command: 'order refund', args: { order: order.Key, amount: 5000, to: 'wallet' } });
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

describe('refunds that need attention', () => {
  const abnormal = {
    refundNo: `${order.Key}R1`,
    amount: 2000,
    to: 'original' as const,
    state: 'abnormal' as const,
    actor: 'ops',
    at: '2026-12-01T10:00:00.000Z',
    settledAt: null,
  };

  it('lists the refunds WeChat Pay reported abnormal, and keeps an abnormal refund’s amount reserved', async () => {
    const { ran, run } = commands({
      'refund attention': () => ({ command: 'refund attention', refunds: [{ ...abnormal, orderKey: order.Key }] }),
      'order show': () => ({ command: 'order show', key: order.Key, order: { ...order, Timeline: [], Refunds: [abnormal] } }),
    });
    const orders = createOrders(run);
    await orders.attention();
    expect(ran).toEqual([{ command: 'refund attention', args: {} }]);
    expect(orders.$attention.get()).toEqual([{ ...abnormal, orderKey: order.Key }]);
    await orders.show(order.Key);
    expect(leftToRefund(orders.$order.get()!)).toBe(3000);
  });

  it('resolves one on the order shown, then shows the order and the list as they are now', async () => {
    let state: 'abnormal' | 'succeeded' = 'abnormal';
    const { ran, run } = commands({
      'refund attention': () => ({ command: 'refund attention', refunds: state === 'abnormal' ? [{ ...abnormal, orderKey: order.Key }] : [] }),
      'order show': () => ({ command: 'order show', key: order.Key, order: { ...order, Timeline: [], Refunds: [{ ...abnormal, state }] } }),
      'refund resolve': () => {
        state = 'succeeded';
        return { command: 'refund resolve', key: abnormal.refundNo, order, refund: { ...abnormal, state }, refused: null, pushed: true };
      },
    });
    const orders = createOrders(run);
    await orders.attention();
    await orders.show(order.Key);
    await orders.resolve(abnormal.refundNo, 'succeeded');
    expect(ran.slice(-3)).toEqual([
      { command: 'refund resolve', args: { refund: abnormal.refundNo, resolution: 'succeeded' } },
      { command: 'order show', args: { order: order.Key } },
      { command: 'refund attention', args: {} },
    ]);
    expect(orders.$order.get()?.Refunds[0].state).toBe('succeeded');
    expect(orders.$attention.get()).toEqual([]);
    expect(orders.orderOutcome.$notice.get()).toEqual({ kind: 'ok', key: 'console.orders.resolvedSucceeded' });
  });

  it('says a refusal to resolve in the operator’s words, and says when the refund is freed', async () => {
    let refused: string | null = 'This refund does not need resolving: only a refund WeChat Pay reported abnormal does.';
    const { run } = commands({
      'refund attention': () => ({ command: 'refund attention', refunds: [] }),
      'order show': () => ({ command: 'order show', key: order.Key, order: { ...order, Timeline: [], Refunds: [abnormal] } }),
      'refund resolve': () => ({ command: 'refund resolve', key: abnormal.refundNo, order: refused ? null : order, refund: null, refused, pushed: false }),
    });
    const orders = createOrders(run);
    await orders.show(order.Key);
    await orders.resolve(abnormal.refundNo, 'failed');
    expect(orders.orderOutcome.$notice.get()).toEqual({ kind: 'error', key: 'console.orders.refusedBecause', params: { reason: refused } });
    refused = null;
    await orders.resolve(abnormal.refundNo, 'failed');
    expect(orders.orderOutcome.$notice.get()).toEqual({ kind: 'ok', key: 'console.orders.resolvedFailed' });
  });
});

describe('the status area', () => {
  it('sets a state with the notes that are not empty, trimmed, by locale', () => {
    expect(statusArgs({ key: 'github', state: 'degraded', notes: { en: ' Slow ', ja: '', ru: 'Медленно' } })).toEqual({
      service: 'github',
      state: 'degraded',
      notes: { en: 'Slow', ru: 'Медленно' },
    });
  });

  it('loads the board and maintenance, and pauses payments', async () => {
    let paused = false;
    const { ran, run } = commands({
      'status list': () => ({ command: 'status list', services: [] }),
      'maintenance status': () => ({ command: 'maintenance status', maintenance: paused }),
      'status incidents': () => ({ command: 'status incidents', incidents: [] }),
      'maintenance on': () => ((paused = true), { command: 'maintenance on', maintenance: true }),
    });
    const board = createStatusBoard(run);
    await board.load();
    expect(board.$maintenance.get()).toBe(false);
    await board.setMaintenance(true);
    expect(ran.at(-1)).toEqual({ command: 'maintenance on', args: {} });
    expect(board.$maintenance.get()).toBe(true);
    expect(board.$notice.get()).toEqual({ kind: 'ok', key: 'console.status.maintenanceOn' });
  });
});

describe('the reviews area', () => {
  it('hides a review with the reason, and leaves the reason out when there is none', async () => {
    const review = {
      id: 4,
      plugin: 'authenticator',
      userId: 2,
      rating: 1,
      text: 'spam',
      helpful: 0,
      hidden: false,
      reports: 3,
      reasons: ['spam'],
      createdAt: '',
    };
    const { ran, run } = commands({
      'evaluation reported': () => ({ command: 'evaluation reported', rows: [review], total: 1, page: 1, size: 25 }),
      'evaluation hide': () => ({ command: 'evaluation hide', evaluation: { ...review, hidden: true } }),
      'evaluation unhide': () => ({ command: 'evaluation unhide', evaluation: review }),
    });
    const reviews = createReviews(run);
    await reviews.list({ ...reviewsList.start, filter: { shown: 'visible', plugin: ' authenticator ' } });
    expect(ran.at(-1)).toEqual({ command: 'evaluation reported', args: { ...reviewsList.start.query, shown: 'visible', plugin: 'authenticator' } });
    await reviews.setHidden(4, true, ' advertising ');
    expect(ran.at(-1)).toEqual({ command: 'evaluation hide', args: { id: 4, reason: 'advertising' } });
    expect(reviews.$reviews.get()).toMatchObject({ rows: [{ id: 4, hidden: true }], total: 1 });
    await reviews.setHidden(4, false, '');
    expect(ran.at(-1)).toEqual({ command: 'evaluation unhide', args: { id: 4 } });
  });
});

describe('the audit area', () => {
  const line = (id: number) => ({
    id,
    at: '',
    actor: 'ops',
    actorUserId: 1,
    address: null,
    action: 'order refund',
    target: 'order 1',
    before: null,
    after: null,
  });

  it('finds a page of lines by action, record, actor and days, sorted as asked', async () => {
    const { ran, run } = commands({
      'audit list': (args) => ({ command: 'audit list', rows: [line(1)], total: 31, page: args.page, size: args.size }),
    });
    const audit = createAudit(run);
    const { query, filter } = auditList.start;
    await audit.find({ query, filter: { ...filter, action: 'order refund', kind: 'order', id: ' 1 ' } });
    expect(ran.at(-1)).toEqual({ command: 'audit list', args: { ...query, action: 'order refund', target: 'order 1' } });
    await audit.find({
      query: { ...query, sort: 'actor', dir: 'asc', page: 2 },
      filter: { ...filter, kind: 'server keys', actor: ' ops ', since: '2026-12-01' },
    });
    expect(ran.at(-1)).toEqual({
      command: 'audit list',
      args: { ...query, sort: 'actor', dir: 'asc', page: 2, target: 'server keys', actor: 'ops', since: '2026-12-01' },
    });
    // A kind without an id names no record: any record; an action of no known kind (typed into the URL) is any action.
    await audit.find({ query, filter: { ...filter, action: 'order refund', kind: 'user', id: ' ' } });
    expect(ran.at(-1)).toEqual({ command: 'audit list', args: { ...query, action: 'order refund' } });
    await audit.find({ query, filter: { ...filter, action: 'drop tables' as 'order refund' } });
    expect(ran.at(-1)).toEqual({ command: 'audit list', args: query });
    expect(audit.$entries.get()).toEqual({ rows: [line(1)], total: 31, page: 1, size: query.size });
  });

  it('gives a role, says so for nobody, and lists the roles again', async () => {
    const { ran, run } = commands({
      'role grant': (args) => ({ command: 'role grant', key: args.user, userId: args.user === 'nobody' ? null : 5, previous: null, role: 'support' }),
      'role list': () => ({ command: 'role list', operators: [] }),
    });
    const audit = createAudit(run);
    await audit.setRole('nobody', 'support');
    expect(audit.roles.$notice.get()).toEqual({ kind: 'error', key: 'console.audit.noSuchUser', params: { user: 'nobody' } });
    await audit.setRole(' 5 ', 'support');
    expect(ran.slice(-2)).toEqual([
      { command: 'role grant', args: { user: '5', role: 'support' } },
      { command: 'role list', args: {} },
    ]);
    expect(audit.roles.$notice.get()).toEqual({ kind: 'ok', key: 'console.audit.roleChanged' });
  });

  it('unlocks a sign-in wrong codes locked, and lists the roles again without the lock', async () => {
    const locked = { userId: 5, phone: null, email: null, nickname: 'Ops', role: 'support' as const, grantedAt: '', lockedUntil: '2026-11-28T09:15:00.000Z' };
    let unlocked = false;
    const { ran, run } = commands({
      'role unlock': (args) => {
        unlocked = true;
        return { command: 'role unlock', key: args.user, userId: 5, unlocked: true };
      },
      'role list': () => ({ command: 'role list', operators: [{ ...locked, lockedUntil: unlocked ? null : locked.lockedUntil }] }),
    });
    const audit = createAudit(run);
    await audit.loadOperators();
    expect(audit.$operators.get()).toEqual([locked]);
    await audit.unlock(5);
    expect(ran.slice(-2)).toEqual([
      { command: 'role unlock', args: { user: '5' } },
      { command: 'role list', args: {} },
    ]);
    expect(audit.$operators.get()).toEqual([{ ...locked, lockedUntil: null }]);
    expect(audit.roles.$notice.get()).toEqual({ kind: 'ok', key: 'console.audit.unlocked' });
  });
});

describe('the cdkeys area', () => {
  const products = [{ Code: 'steam-us', Kind: 'steamRecharge', Currency: 'USD', Active: true }] as unknown as Parameters<typeof createArgs>[1];

  it('turns the form into the command’s arguments, the grant in the smallest unit, and refuses a form that does not say one', () => {
    expect(createArgs({ ...emptyBatch, name: 'spring', count: '5', amount: '12.5' }, products)).toStrictEqual({
      batch: 'spring',
      count: 5,
      grant: { Kind: 'wallet', Amount: 1250 },
    });
    expect(createArgs({ ...emptyBatch, name: 'idle', kind: 'membership', days: '30', expires: '2027-06-30' }, products)).toStrictEqual({
      batch: 'idle',
      count: 10,
      grant: { Kind: 'membership', Days: 30 },
      expires: '2027-06-30',
    });
    expect(createArgs({ ...emptyBatch, name: 'us', kind: 'steamRecharge', product: 'steam-us', amount: '10' }, products)?.grant).toEqual({
      Kind: 'steamRecharge',
      Product: 'steam-us',
      Amount: 1000,
    });
    expect(createArgs({ ...emptyBatch, name: 'Spring Sale', amount: '5' }, products)).toBeNull();
    expect(createArgs({ ...emptyBatch, name: 'spring', amount: '0' }, products)).toBeNull();
    expect(createArgs({ ...emptyBatch, name: 'spring', kind: 'steamRecharge', product: 'steam-eu', amount: '10' }, products)).toBeNull();
  });

  it('makes a batch and keeps its keys; a name taken is said in the operator’s words', async () => {
    const batch = { name: 'spring', grant: { Kind: 'wallet', Amount: 500 }, count: 2, used: 0, revoked: 0, expiresAt: null, createdAt: '' };
    let taken = false;
    const { run } = commands({
      'product list': () => ({ command: 'product list', products: [] }),
      'cdkey create': () => {
        if (taken) throw new ApiFailure('server', { code: ErrorCode.BadRequest, serverMessage: 'Партия с названием spring уже есть.' });
        taken = true;
        return { command: 'cdkey create', batch, keys: ['AAAAA-BBBBB-CCCCC-DDDDD', 'EEEEE-FFFFF-GGGGG-HHHHH'] };
      },
    });
    const cdkeys = createCdkeys(run);
    await cdkeys.loadProducts();
    await cdkeys.create({ ...emptyBatch, name: 'spring', count: '2', amount: '5' });
    expect(cdkeys.$keys.get()).toHaveLength(2);
    expect(cdkeys.$notice.get()).toEqual({ kind: 'ok', key: 'console.cdkeys.created', params: { count: 2 } });
    await cdkeys.create({ ...emptyBatch, name: 'spring', count: '2', amount: '5' });
    expect(cdkeys.$notice.get()).toEqual({ kind: 'error', text: 'Партия с названием spring уже есть.' });
    await cdkeys.create({ ...emptyBatch });
    expect(cdkeys.$notice.get()).toEqual({ kind: 'error', key: 'console.cdkeys.incomplete' });
  });
});

describe('the raffles area', () => {
  const summary = {
    id: 7,
    kind: 'registration',
    title: 'Spring',
    state: 'upcoming',
    opensAt: '',
    closesAt: '',
    drawAt: '',
    drawnAt: null,
    entrants: 0,
    stock: null,
    commitment: null,
    publicSource: null,
    publicValue: null,
  };

  it('offers a definition with every language to fill in', () => {
    const template = JSON.parse(definitionTemplate(Date.parse('2026-11-28T00:00:00Z'))) as { Title: Record<string, string>; OpensAt: string };
    expect(Object.keys(template.Title)).toEqual(['zh-CN', 'zh-TW', 'en', 'es', 'it', 'ja', 'ko', 'ru']);
    expect(template.OpensAt).toBe('2026-11-29T00:00:00Z');
  });

  it('sends the definition and the cover, and shows the command’s refusal', async () => {
    const sent: Array<[string, unknown, string | undefined]> = [];
    let refuse = true;
    const run: RunCommand = async (command, args, attachment) => {
      sent.push([command.name, args, attachment]);
      if (command.name === 'raffle list') return { command: 'raffle list', rows: [summary], total: 1, page: 1, size: 25 } as never;
      return (
        refuse
          ? { command: 'raffle create', raffle: null, winners: [], refused: 'Cover: not a PNG, JPEG or WebP image', pushed: false }
          : { command: 'raffle create', raffle: summary, winners: [], refused: null, pushed: false }
      ) as never;
    };
    const raffles = createRaffles(run);
    // The template with every text filled in: a definition the command takes.
    const filled = definitionTemplate(Date.parse('2026-11-28T00:00:00Z')).replaceAll('""', '"Spring"');
    await raffles.create(filled, 'aGVsbG8=');
    expect(sent[0]).toEqual(['raffle create', { definition: JSON.parse(filled) }, 'aGVsbG8=']);
    expect(raffles.$notice.get()).toEqual({ kind: 'error', key: 'console.raffles.refused', params: { reason: 'Cover: not a PNG, JPEG or WebP image' } });
    refuse = false;
    await raffles.create(filled);
    expect(raffles.$raffle.get()?.raffle?.id).toBe(7);
    expect(raffles.$raffles.get()).toEqual({ rows: [summary], total: 1, page: 1, size: 25 });
    expect(raffles.$notice.get()).toEqual({ kind: 'ok', key: 'console.raffles.created' });
  });

  it('says what is wrong with a definition, as the command would, and sends nothing', async () => {
    const { ran, run } = commands({});
    const raffles = createRaffles(run);
    await raffles.create('{"Kind": ');
    expect(raffles.$notice.get()).toMatchObject({ kind: 'error', key: 'console.raffles.refused', params: { reason: expect.stringMatching(/^not JSON: /) } });
    const template = JSON.parse(definitionTemplate().replaceAll('""', '"Spring"')) as Record<string, unknown>;
    await raffles.create(JSON.stringify({ ...template, PublicSource: undefined }));
    expect(raffles.$notice.get()).toEqual({
      kind: 'error',
      key: 'console.raffles.refused',
      params: { reason: 'PublicSource: a registration raffle needs PublicSource' },
    });
    // The template as offered: every text still to write.
    await raffles.create(definitionTemplate());
    expect(raffles.$notice.get()).toMatchObject({ params: { reason: expect.stringMatching(/^Title\.zh-CN: /) } });
    expect(ran).toEqual([]);
  });

  it('runs open, close, value and draw on the raffle shown, by its id', async () => {
    const shown = { command: 'raffle show', raffle: summary, winners: [], refused: null, pushed: false };
    const { ran, run } = commands({
      'raffle show': () => shown,
      'raffle list': () => ({ command: 'raffle list', raffles: [summary] }),
      'raffle open': () => ({ ...shown, command: 'raffle open' }),
      'raffle close': () => ({ ...shown, command: 'raffle close' }),
      'raffle value': () => ({ ...shown, command: 'raffle value' }),
      'raffle draw': () => ({ ...shown, command: 'raffle draw', refused: 'no public value' }),
      'raffle entries': () => ({ command: 'raffle entries', raffleId: 7, entries: [] }),
    });
    const raffles = createRaffles(run);
    await raffles.show(7);
    await raffles.entries();
    await raffles.open();
    await raffles.close();
    await raffles.enterValue('  01 02 03 ');
    await raffles.draw();
    expect(ran.filter((entry) => entry.command !== 'raffle list')).toEqual([
      { command: 'raffle show', args: { id: 7 } },
      { command: 'raffle entries', args: { id: 7 } },
      { command: 'raffle open', args: { id: 7 } },
      { command: 'raffle close', args: { id: 7 } },
      { command: 'raffle value', args: { id: 7, value: '01 02 03' } },
      { command: 'raffle draw', args: { id: 7 } },
    ]);
    expect(raffles.$notice.get()).toEqual({ kind: 'error', key: 'console.raffles.refused', params: { reason: 'no public value' } });
  });
});
