/**
 * Invoices (server/modules/commerce/invoices.ts): a customer asks for one on an
 * order paid with money, within the period after paying, made out to a person
 * or to a company with a valid unified social credit code; asking twice at once
 * makes one request; an unpaid, wholly refunded or too old order is refused in
 * the reader's language. An operator issues it with a real PDF (anything else,
 * or a file too large, is refused) or refuses it with a reason; both are
 * audited and e-mailed to the customer in the language they asked in, and a
 * refused request may be asked again. The issued PDF goes to the order's owner
 * alone, as an attachment: anyone else is answered as for an unknown order.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWords } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import type { ListedInvoice } from '#contract/commands/invoices.ts';
import { commerceCalls, type Order } from '#contract/commerce.ts';
import { consoleCalls } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { facts, formatFact } from '#contract/facts.ts';
import { invoiceCalls, invoiceFileMaxBytes, invoiceWindowMs, isCreditCode, type InvoiceAsk } from '#contract/invoices.ts';
import { runCommand } from '../../../server/admin-command.ts';
import { smallPdf } from '../../setup/small-pdf.ts';
import { shellActor, type Actor } from '../../../server/db/audit.ts';
import { auditLog, invoiceRequests, orders, payments, products } from '../../../server/db/schema.ts';
import { demoProducts } from '../../../server/modules/commerce/catalogue.ts';
import { changeBalance } from '../../../server/modules/commerce/wallet.ts';
import { expectBadTokensRefused } from './bad-tokens.ts';
import { loginBySms, outbox } from './codes.ts';
import { runAdmin, startApp, type TestApp } from './harness.ts';

let t: TestApp;
let phoneSeq = 0;

beforeAll(async () => {
  t = await startApp({ SITE_URL: 'https://beacon.test' });
  await t.app.db.insert(products).values(demoProducts);
});
afterAll(() => t.close());

async function buyer() {
  const login = await loginBySms(t, `1360000${String(++phoneSeq).padStart(4, '0')}`, `device-${phoneSeq}`);
  return { token: login.AccessToken, userId: login.User.Id };
}

const newOrder = async (token: string): Promise<Order> =>
  (await t.call(commerceCalls.createOrder, { token, body: { Product: 'steam-cn', Amount: 5000, Target: '12345678' } })).body.data;

/** A customer with an order paid from the wallet. */
async function paidOrder() {
  const user = await buyer();
  await t.app.db.transaction((tx) => changeBalance(tx, user.userId, 5000, 'credit', null));
  const order = await newOrder(user.token);
  expect((await t.call(commerceCalls.pay, { token: user.token, params: { key: order.Key }, body: { Method: 'wallet' } })).body.code).toBe(200);
  return { ...user, order };
}

/** Published unified social credit codes (the standard's own example, and Tencent's and Huawei's Shenzhen companies). */
const validCodes = ['91350100M000100Y43', '9144030071526726XG', '914403001922038216'];

const company: InvoiceAsk = { TitleType: 'company', Title: 'Shenzhen Test Co., Ltd.', TaxNumber: validCodes[1], Email: 'billing@example.com' };
const personal = (Email: string): InvoiceAsk => ({ TitleType: 'personal', Title: 'Li Lei', Email });

const ask = (token: string, key: string, body: InvoiceAsk, locale = 'en') => t.call(invoiceCalls.askInvoice, { token, params: { key }, body, locale });
const invoiceOf = (token: string, key: string) => t.call(invoiceCalls.invoice, { token, params: { key } });
const download = (token: string | null, key: string) =>
  t.app.inject({
    method: 'GET',
    url: `/api/commerce/v1/orders/${key}/invoice/file`,
    headers: { 'accept-language': 'en', ...(token ? { authorization: `Bearer ${token}` } : {}) },
  });

const operatorActor: Actor = { label: 'Ops (user 1, support)', userId: null, address: '127.0.0.1', role: 'support' };

/** A command as the console runs it for a support user, with the file as its attachment. */
async function consoleRun<N extends 'invoice issue' | 'invoice refuse' | 'invoice list'>(
  words: string[],
  attachment: Buffer | null = null,
  locale: 'en' | 'ru' = 'en',
) {
  const { command, args } = parseWords(operatorCommands, words);
  return (await runCommand(t.app, command.name, args, { actor: operatorActor, locale, attachment }, 'support')) as {
    command: N;
    key: string;
    invoice: ListedInvoice | null;
    rows: ListedInvoice[];
    total: number;
    page: number;
    size: number;
    refused: string | null;
    emailed: boolean;
  };
}

describe('the unified social credit code', () => {
  it('takes published codes and refuses a changed check character, a wrong length and letters outside its alphabet', () => {
    for (const code of validCodes) expect(isCreditCode(code)).toBe(true);
    expect(isCreditCode('9144030071526726XH')).toBe(false);
    expect(isCreditCode('914403007152672')).toBe(false);
    expect(isCreditCode('91440300715267I6XG')).toBe(false);
  });
});

describe('asking for an invoice', () => {
  it('keeps a company request and shows it with the period left', async () => {
    const { token, order } = await paidOrder();
    const before = await invoiceOf(token, order.Key);
    expect(before.body.data.Request).toBeNull();
    const [payment] = await t.app.db.select().from(payments).innerJoin(orders, eq(orders.id, payments.orderId)).where(eq(orders.key, order.Key));
    expect(before.body.data.AskUntil).toBe(new Date(payment.payments.at.getTime() + invoiceWindowMs).toISOString());

    const asked = await ask(token, order.Key, { ...company, TaxNumber: ' 9144 0300 7152 6726xg ' });
    expect(asked.body).toMatchObject({ code: 200, message: 'Your invoice request was sent.' });
    expect(asked.body.data.Request).toMatchObject({
      State: 'requested',
      TitleType: 'company',
      TaxNumber: validCodes[1],
      Email: 'billing@example.com',
      RefusalReason: null,
    });
  });

  it('refuses a company without a valid tax number, and an empty title, in the reader’s language', async () => {
    const { token, order } = await paidOrder();
    const wrong = await ask(token, order.Key, { ...company, TaxNumber: '9144030071526726XH' });
    expect(wrong.body).toMatchObject({
      code: ErrorCode.BadRequest,
      message: 'A company invoice needs a valid unified social credit code (18 letters and digits).',
    });
    expect((await ask(token, order.Key, { ...company, TaxNumber: undefined }, 'ru')).body.message).toBe(
      'Для счёта-фактуры на компанию нужен действительный единый код социального кредита (18 букв и цифр).',
    );
    expect((await ask(token, order.Key, { ...personal('a@example.com'), Title: '   ' })).body.message).toBe('Enter the invoice title.');
    // A person's request drops a tax number typed by mistake.
    const asked = await ask(token, order.Key, { ...personal('a@example.com'), TaxNumber: 'whatever' });
    expect(asked.body.data.Request).toMatchObject({ TitleType: 'personal', TaxNumber: null });
  });

  it('refuses an unpaid order, a wholly refunded one and one past the period, saying which', async () => {
    const { token } = await buyer();
    const unpaid = await newOrder(token);
    expect((await ask(token, unpaid.Key, company)).body).toMatchObject({
      code: ErrorCode.InvoiceUnavailable,
      message: 'This order has not been paid, so no invoice can be issued for it.',
    });
    expect((await invoiceOf(token, unpaid.Key)).body.data).toEqual({ Request: null, AskUntil: null });

    const old = await paidOrder();
    const [{ id }] = await t.app.db.select({ id: orders.id }).from(orders).where(eq(orders.key, old.order.Key));
    await t.app.db
      .update(payments)
      .set({ at: new Date(Date.now() - invoiceWindowMs - 60_000) })
      .where(eq(payments.orderId, id));
    const late = await ask(old.token, old.order.Key, company, 'ja');
    expect(late.body.code).toBe(ErrorCode.InvoiceUnavailable);
    expect(late.body.message).toBe(`発票はお支払いから${formatFact('orders.invoiceWindow', 'ja')}以内に申請できますが、この注文はその期間を過ぎています。`);

    const refunded = await paidOrder();
    await shellCommand('order', 'refund', refunded.order.Key, '--to', 'wallet');
    expect((await ask(refunded.token, refunded.order.Key, company)).body).toMatchObject({
      code: ErrorCode.InvoiceUnavailable,
      message: 'This order was refunded in full, so no invoice can be issued for it.',
    });
  });

  it('makes one request of many asked at once', async () => {
    const { token, order } = await paidOrder();
    const answers = await Promise.all(Array.from({ length: 5 }, () => ask(token, order.Key, company)));
    expect(answers.filter((answer) => answer.body.code === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.body.code === ErrorCode.InvoiceAsked)).toHaveLength(4);
    const rows = await t.app.db.select().from(invoiceRequests).innerJoin(orders, eq(orders.id, invoiceRequests.orderId)).where(eq(orders.key, order.Key));
    expect(rows).toHaveLength(1);
  });

  it('holds one open or issued request per order in the database itself', async () => {
    const { token, order } = await paidOrder();
    await ask(token, order.Key, company);
    const [{ id }] = await t.app.db.select({ id: orders.id }).from(orders).where(eq(orders.key, order.Key));
    const again = { orderId: id, titleType: 'personal' as const, title: 'x', email: 'x@example.com', locale: 'en', state: 'requested' as const };
    await expect(t.app.db.insert(invoiceRequests).values(again)).rejects.toThrow();
    await t.app.db.insert(invoiceRequests).values({ ...again, state: 'refused' });
  });

  it("answers another user's order exactly as an unknown number", async () => {
    const { order } = await paidOrder();
    const other = await buyer();
    const foreign = await ask(other.token, order.Key, company);
    const unknown = await ask(other.token, '20260101000000000000', company);
    expect(foreign.body).toMatchObject({ code: ErrorCode.NotFound, message: 'There is no such order in your account.' });
    expect(unknown.body).toEqual(foreign.body);
    expect((await invoiceOf(other.token, order.Key)).body).toEqual((await invoiceOf(other.token, '20260101000000000000')).body);
  });

  it('refuses missing, made-up, expired and revoked tokens on every invoice call', async () => {
    const { order } = await paidOrder();
    await expectBadTokensRefused(t, invoiceCalls.invoice, { params: { key: order.Key } }, buyer);
    await expectBadTokensRefused(t, invoiceCalls.askInvoice, { params: { key: order.Key }, body: company }, buyer);
    await expectBadTokensRefused(t, invoiceCalls.invoiceFile, { params: { key: order.Key } }, buyer);
  });
});

async function shellCommand(...words: string[]) {
  const { command, args } = parseWords(operatorCommands, words);
  return runCommand(t.app, command.name, args, { actor: shellActor('ops@shop', null), locale: 'en', attachment: null }, null);
}

describe('issuing and refusing', () => {
  it('issues with a real PDF, e-mails the customer in their language, audits it, and lets only the owner download it', async () => {
    const { token, order } = await paidOrder();
    const email = `issued-${order.Key}@example.com`;
    await ask(token, order.Key, personal(email), 'ja');
    const pdf = smallPdf();

    const issued = await consoleRun<'invoice issue'>(['invoice', 'issue', order.Key], pdf);
    expect(issued).toMatchObject({
      refused: null,
      emailed: true,
      invoice: { orderKey: order.Key, state: 'issued', hasFile: true, decidedBy: operatorActor.label },
    });
    expect((await invoiceOf(token, order.Key)).body.data.Request).toMatchObject({ State: 'issued' });

    const [mail] = await outbox(t, email);
    expect(mail).toContain(`注文 ${order.Key} でご申請の発票を発行しました。`);
    expect(mail).toContain(`https://beacon.test/ja/account/center/order/detail?key=${order.Key}`);

    const [line] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'invoice issue'), eq(auditLog.target, `order ${order.Key}`)));
    expect(line).toMatchObject({ actor: operatorActor.label, address: '127.0.0.1', before: { state: 'requested' }, after: { state: 'issued' } });

    const file = await download(token, order.Key);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('application/pdf');
    expect(file.headers['content-disposition']).toBe(`attachment; filename="invoice-${order.Key}.pdf"`);
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(file.rawPayload.equals(pdf)).toBe(true);

    const other = await buyer();
    const foreign = await download(other.token, order.Key);
    const unknown = await download(other.token, '20260101000000000000');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.headers['content-type']).not.toContain('pdf');
    expect(foreign.json()).toEqual(unknown.json());
    expect(foreign.json()).toMatchObject({ code: ErrorCode.NotFound, message: 'There is no such order in your account.' });
    expect((await download(null, order.Key)).statusCode).toBe(401);
  });

  it('refuses a file that is no PDF, one too large, and none at all, changing nothing', async () => {
    const { token, order } = await paidOrder();
    await ask(token, order.Key, company);
    const notPdf = await consoleRun<'invoice issue'>(['invoice', 'issue', order.Key], Buffer.from('<html>not a pdf</html>'));
    expect(notPdf).toMatchObject({ invoice: null, refused: 'The file is not a PDF.', emailed: false });
    const large = Buffer.concat([Buffer.from('%PDF-1.4\n'), Buffer.alloc(invoiceFileMaxBytes)]);
    expect((await consoleRun<'invoice issue'>(['invoice', 'issue', order.Key], large, 'ru')).refused).toBe(
      `Файл больше ${facts.orders.invoiceFileMaxMegabytes} МБ.`,
    );
    expect((await consoleRun<'invoice issue'>(['invoice', 'issue', order.Key])).refused).toBe('Attach the issued invoice as a PDF.');
    expect((await invoiceOf(token, order.Key)).body.data.Request?.State).toBe('requested');
    const download404 = await download(token, order.Key);
    expect(download404.json()).toMatchObject({ code: ErrorCode.NotFound, message: 'No invoice has been issued for this order yet.' });
  });

  it('refuses with a reason the customer reads, audits it, and lets the customer ask again', async () => {
    const { token, order } = await paidOrder();
    const email = `refused-${order.Key}@example.com`;
    await ask(token, order.Key, { ...company, Email: email });
    const reason = 'The company name does not match the tax number.';
    const refused = await consoleRun<'invoice refuse'>(['invoice', 'refuse', order.Key, ...reason.split(' ')]);
    expect(refused).toMatchObject({ refused: null, emailed: true, invoice: { state: 'refused', refusalReason: reason } });
    expect((await invoiceOf(token, order.Key)).body.data.Request).toMatchObject({ State: 'refused', RefusalReason: reason });
    expect((await outbox(t, email)).at(-1)).toContain(reason);
    const [line] = await t.app.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, 'invoice refuse'), eq(auditLog.target, `order ${order.Key}`)));
    expect(line.after).toMatchObject({ state: 'refused', refusalReason: reason });

    // Nothing is waiting now: a second decision is refused.
    expect((await consoleRun<'invoice refuse'>(['invoice', 'refuse', order.Key, 'again'])).refused).toBe('This order has no invoice request waiting.');
    const again = await ask(token, order.Key, { ...company, Title: 'Corrected Co., Ltd.' });
    expect(again.body.data.Request).toMatchObject({ State: 'requested', Title: 'Corrected Co., Ltd.' });
  });

  it('flags a partly refunded order’s request in the list, filtered by state', async () => {
    const { token, order } = await paidOrder();
    await ask(token, order.Key, company);
    await shellCommand('order', 'refund', order.Key, '--amount', '1000', '--to', 'wallet');
    const listed = await consoleRun<'invoice list'>(['invoice', 'list', '--state', 'requested']);
    expect(listed.rows.find((invoice) => invoice.orderKey === order.Key)).toMatchObject({ refunded: 1000, price: 5000, orderState: 'paid' });
    expect(listed.rows.every((invoice) => invoice.state === 'requested')).toBe(true);
    expect(listed.total).toBeGreaterThanOrEqual(listed.rows.length);
    const byPrice = await consoleRun<'invoice list'>(['invoice', 'list', '--sort', 'price', '--asc', '--size', '2']);
    expect(byPrice).toMatchObject({ page: 1, size: 2 });
    expect(byPrice.rows).toHaveLength(2);
  });

  it('is refused to a console caller without a session, and runs at the shell with the file the CLI read from the operator’s disk', async () => {
    const noSession = await t.call(consoleCalls.run, { body: { Command: 'invoice list', Args: {} } });
    expect(noSession.body.code).toBe(ErrorCode.ConsoleSignIn);
    const { token, order } = await paidOrder();
    await ask(token, order.Key, company);
    // `npm run admin -- invoice issue <order> --file <pdf>`: the CLI reads the file and sends it to the running server.
    const file = path.join(mkdtempSync(path.join(tmpdir(), 'invoice-')), 'invoice.pdf');
    writeFileSync(file, smallPdf());
    const shell = await runAdmin<{ invoice: ListedInvoice | null }>(t, 'invoice', 'issue', order.Key, '--file', file);
    expect(shell).toMatchObject({ code: 200, data: { invoice: { state: 'issued', hasFile: true } } });
    expect((await download(token, order.Key)).rawPayload.equals(smallPdf())).toBe(true);
  });
});
