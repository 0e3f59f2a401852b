/**
 * Input an attacker would send: control characters in every field of every
 * call, WebSocket upgrades to site pages, connections reset mid-request and
 * bodies far over the limit. None may cost a 5xx, a socket or an error-level
 * log line.
 */
import { execFile } from 'node:child_process';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { connect, type Socket } from 'node:net';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import { admin, adminTokenHeader } from '#contract/admin.ts';
import { accountCalls } from '#contract/account.ts';
import { activationCalls } from '#contract/activation.ts';
import { agreementCalls } from '#contract/agreements.ts';
import { commerceCalls, orderStatusEvent } from '#contract/commerce.ts';
import { donationCalls } from '#contract/donation.ts';
import type { ApiRoute } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { dev } from '#contract/dev.ts';
import { ErrorCode } from '#contract/errors.ts';
import { printable, printableLines } from '#contract/fields.ts';
import { deviceCalls } from '#contract/device-login.ts';
import { externalLogin, keyPadding } from '#contract/external-login.ts';
import { identity, support, system } from '#contract/identity.ts';
import { idleGameCalls } from '#contract/idle-games.ts';
import { invoiceCalls } from '#contract/invoices.ts';
import { raffleCalls } from '#contract/raffle.ts';
import { pluginCalls, pluginRules } from '#contract/plugins.ts';
import { serviceStatusEvent, statusCalls } from '#contract/status.ts';
import { hubEvents, hubMethods } from '#contract/realtime.ts';
import { loggedInUsers, startApp, type TestApp } from './harness.ts';

const run = promisify(execFile);
const routes: ApiRoute[] = [
  identity,
  accountCalls,
  externalLogin,
  deviceCalls,
  idleGameCalls,
  commerceCalls,
  invoiceCalls,
  agreementCalls,
  activationCalls,
  donationCalls,
  raffleCalls,
  pluginCalls,
  statusCalls,
  support,
  system,
  admin,
  dev,
]
  .flatMap((group) => Object.values(group))
  // The payment providers' notifications answer any unsigned body with the same 400 as a malformed one; their refusals are tested with signed ones (commerce.test.ts, alipay.test.ts).
  .filter((route) => route !== commerceCalls.notify && route !== commerceCalls.notifyAlipay);

const phone = '13900009999';
const email = 'nul-test@example.com';
const DeviceId = 'nul-test-device';
/** A request each call accepts as well-formed (it may still be refused for other reasons: a wrong code, no login). */
const wellFormed: Record<string, Record<string, unknown>> = {
  [identity.sendSmsCode.path]: { Phone: phone },
  [identity.sendEmailCode.path]: { Email: email },
  [identity.loginOrRegister.path]: { Phone: phone, Code: '123456', DeviceId },
  [identity.loginByPassword.path]: { Account: phone, Password: 'password-1', DeviceId },
  [identity.registerByEmail.path]: { Email: email, Code: '123456', Password: 'password-1', DeviceId },
  [identity.validateRegisterEmail.path]: { Email: email },
  [identity.refreshToken.path]: { RefreshToken: 'not-a-real-token' },
  [admin.run.path]: { command: 'users list', args: {} },
  [dev.outbox.path]: { to: phone },
  [dev.expireEmailLinks.path]: { to: email },
  [accountCalls.updateNickname.path]: { NickName: 'Valid Name' },
  [accountCalls.uploadAvatar.path]: { Image: 'iVBORw0KGgo=' },
  [accountCalls.changePhone.path]: { Phone: phone, Code: '123456', OldCode: '123456' },
  [accountCalls.bindEmail.path]: { Email: email },
  [accountCalls.confirmEmail.path]: { Token: 'not-a-real-token' },
  [accountCalls.setPassword.path]: { Current: 'password-1', Password: 'password-2' },
  [accountCalls.deleteAccount.path]: { Code: '123456', Password: 'password-1' },
  [externalLogin.start.path]: {
    isBind: 'false',
    ver: '3.2.0',
    sKeyHex: 'ab'.repeat(256),
    sKeyPadding: keyPadding,
    isWeb: 'true',
    dg: DeviceId,
    dr: 'Windows 11',
    dn: 'PC',
    lang: 'en',
  },
  [externalLogin.bindPhone.path]: { Ticket: 'not-a-real-ticket', Phone: phone, Code: '123456', DeviceId },
  [deviceCalls.start.path]: { DeviceId, DeviceName: 'GAMING-PC', System: 'Windows 11', Lang: 'en' },
  [deviceCalls.poll.path]: { DeviceCode: 'not-a-real-device-code' },
  [deviceCalls.decide.path]: { UserCode: 'BCDF-GHJK', Approve: true },
  [identity.openStore.path]: { tk: 'a-store-token', t: '86400', to: '/cart' },
  [identity.introspectStoreToken.path]: { token: 'not-a-real-token' },
  [commerceCalls.createOrder.path]: { Product: 'cloud-idle-monthly' },
  [commerceCalls.pay.path]: { Method: 'wallet' },
  [commerceCalls.payOnPhone.path]: { Method: 'alipay' },
  [agreementCalls.create.path]: { Product: 'cloud-idle-monthly' },
  [invoiceCalls.askInvoice.path]: { TitleType: 'company', Title: 'Test Co.', TaxNumber: '9144030071526726XG', Email: email },
  [commerceCalls.createClientOrder.path]: { Product: 'no-such-product' },
  [commerceCalls.bindOrder.path]: { order: '20261124000000000000', expires: '9999999999', sig: 'not-a-signature' },
  [activationCalls.redeem.path]: { Key: 'ABCDE-FGHJK-LMNPQ-RSTUV' },
  [donationCalls.donate.path]: { Amount: 100, Name: 'Kind Player' },
  [raffleCalls.forthwithRaffle.path]: { ClientSeed: 'my-client-seed' },
  [pluginCalls.save.path]: { Rating: 4, Text: 'Works well.\nWould recommend.' },
};
/** Path parameters for the calls that have them. */
const wellFormedParams: Record<string, Record<string, string>> = {
  [externalLogin.start.path]: { provider: 'steam' },
  [commerceCalls.pay.path]: { key: '20261124000000000000' },
  [commerceCalls.payOnPhone.path]: { key: '20261124000000000000' },
  [invoiceCalls.askInvoice.path]: { key: '20261124000000000000' },
  [raffleCalls.forthwithRaffle.path]: { id: '1' },
  [pluginCalls.save.path]: { slug: 'authenticator' },
};

type Schema = z.ZodMiniType;
const defOf = (schema: Schema) => schema.def as unknown as Record<string, unknown> & { type: string; checks?: unknown[] };

/** The schemas directly inside one (object fields, array items, optional and nullable inners, union options, …). */
function children(schema: Schema): Schema[] {
  const def = defOf(schema);
  const inner = ['innerType', 'element', 'keyType', 'valueType', 'in', 'out', 'rest'].map((key) => def[key]);
  const lists = [def.items, def.options, def.shape ? Object.values(def.shape as object) : undefined];
  return [...inner, ...lists.flatMap((list) => (Array.isArray(list) ? list : []))].filter(
    (child): child is Schema => typeof child === 'object' && child !== null,
  );
}

/** Every string schema anywhere inside `schema`. */
function strings(schema: Schema): Schema[] {
  return defOf(schema).type === 'string' ? [schema] : children(schema).flatMap(strings);
}

/** The request fields that hold text: a string, or a list of strings. */
function textFields(route: ApiRoute): string[] {
  const shape = (defOf(route.request).shape ?? defOf((defOf(route.request).innerType as Schema) ?? route.request).shape ?? {}) as Record<string, Schema>;
  return Object.entries(shape)
    .filter(([, field]) => strings(field).length > 0)
    .map(([name]) => name);
}

const withNul = (value: unknown) => (Array.isArray(value) ? [`${value[0]}\u0000x`, ...value.slice(1)] : `abc\u0000defgh`);

let t: TestApp;
beforeAll(async () => {
  t = await startApp({ IDENTITY_RATE_LIMIT_PER_MINUTE: '100000', RATE_LIMIT_PER_MINUTE: '100000' });
});
afterAll(() => t.close());

/** A login of a user of its own: a call made with it may change or end that user's session. */
const freshToken = async () => (await loggedInUsers(t, 1))[0].token;

/** Calls a route as its caller would: a logged-in user's call with a login (authentication comes first), the operators' endpoint from loopback with the token. */
async function send(route: ApiRoute, body: unknown, params?: Record<string, string>) {
  const asAdmin = route.auth === 'admin' ? { ip: '127.0.0.1', headers: { [adminTokenHeader]: t.app.adminToken } } : {};
  const token = route.auth === 'required' ? await freshToken() : undefined;
  return t.call(route, { body, params, token, ...asAdmin });
}

describe('control characters', () => {
  it('every string of the contract refuses them, through the shared checks (line breaks only where a person writes paragraphs)', () => {
    const schemas = [
      ...routes.flatMap((route) => [route.request, route.response, ...(route.params ? [route.params] : [])]),
      ...[...Object.values(hubEvents), orderStatusEvent, serviceStatusEvent].map((event) => event.arguments),
      ...Object.values(hubMethods).flatMap((method) => [method.arguments, method.result]),
    ];
    const all = schemas.flatMap(strings);
    expect(all.length).toBeGreaterThan(50);
    // A string format (a date-time, a URL) admits no control character by its own pattern.
    const free = all.filter((schema) => !defOf(schema).format);
    for (const schema of free) expect([printable, printableLines].filter((check) => defOf(schema).checks?.includes(check))).toHaveLength(1);
  });

  it('knows a well-formed request for every call that takes text', () => {
    const missing = routes.filter((route) => textFields(route).length > 0 && !wellFormed[route.path]).map((route) => route.path);
    expect(missing).toEqual([]);
  });

  const cases = routes.flatMap((route) => textFields(route).map((field) => ({ route, field })));
  it.each(cases.map(({ route, field }) => [`${route.method} ${route.path}`, field, route] as const))('%s: a NUL in %s is a 400', async (_, field, route) => {
    const body = wellFormed[route.path];
    const params = wellFormedParams[route.path];
    const plain = await send(route, body, params);
    expect(plain.status).toBeLessThan(500);
    expect(plain.body).not.toMatchObject({ code: ErrorCode.BadRequest, message: 'The request is not valid. Please check what you entered.' });

    const hostile = await send(route, { ...body, [field]: withNul(body[field]) }, params);
    expect(hostile.status).toBe(400);
    expect(hostile.body).toMatchObject({ code: ErrorCode.BadRequest, data: null });
  });

  // Issue 29, point 5: an anonymous caller learns nothing of a call's schema or limits.
  it('every call that needs a login answers an anonymous caller 401 before reading its body', async () => {
    const needLogin = routes.filter((route) => route.auth === 'required');
    expect(needLogin.length).toBeGreaterThan(30);
    for (const route of needLogin) {
      const params = Object.fromEntries([...route.path.matchAll(/:(\w+)/g)].map(([, name]) => [name, 'x\u0000']));
      const response = await t.call(route, { body: { Unknown: '\u0000' }, params });
      expect(response.status, `${route.method} ${route.path}`).toBe(401);
      expect(response.body, `${route.method} ${route.path}`).toMatchObject({ code: ErrorCode.Unauthorized, message: 'You need to log in.' });
    }
  });

  it('an anonymous caller is refused 401 past a call’s own rate limit too', async () => {
    const statuses = new Set<number>();
    for (let i = 0; i < 15; i++) statuses.add((await t.call(accountCalls.uploadAvatar, { body: { Image: 'x' }, ip: '10.99.0.1' })).status);
    expect([...statuses]).toEqual([401]);
  });

  it('a NUL in a path parameter is a 400', async () => {
    const response = await t.call(identity.unbundleAccount, { params: { id: '1\u0000' }, token: await freshToken() });
    expect(response.status).toBe(400);
  });
});

// Issue 47, point 5: a field a person fills in without a message of its own gets the generic form message (spec §5),
// naming the field and the bound it broke, in the reader's language; before, every such field read "the request is not valid".
describe('generic form messages', () => {
  /** The message of a call's 400. */
  async function refusal(route: ApiRoute, body: Record<string, unknown>, locale: string): Promise<string> {
    const token = route.auth === 'required' ? await freshToken() : undefined;
    const answer = await t.call(route, { body, params: wellFormedParams[route.path], token, locale });
    expect(answer.status).toBe(400);
    expect(answer.body).toMatchObject({ code: ErrorCode.BadRequest, data: null });
    return answer.body.message;
  }
  const review = wellFormed[pluginCalls.save.path];

  it('name the field and its bound: required, too long, too small or too large, not a number, not valid', async () => {
    const { textMaxLength, ratingMax } = pluginRules;
    expect(await refusal(pluginCalls.save, { ...review, Text: 'x'.repeat(textMaxLength + 1) }, 'en')).toBe(
      `“Review” must be at most ${textMaxLength} characters long.`,
    );
    expect(await refusal(pluginCalls.save, { ...review, Rating: 0 }, 'ru')).toBe('Значение поля «Оценка» должно быть не меньше 1.');
    expect(await refusal(pluginCalls.save, { ...review, Rating: ratingMax + 1 }, 'ja')).toBe(`「評価」は${ratingMax}以下にしてください。`);
    expect(await refusal(pluginCalls.save, { ...review, Rating: 'four' }, 'es')).toBe('El campo «Valoración» debe ser un número entero.');
    expect(await refusal(pluginCalls.save, { Text: 'Works.' }, 'zh-CN')).toBe('请填写“评分”。');
    expect(await refusal(donationCalls.donate, { Amount: 100, Name: '   ' }, 'ko')).toBe('“표시할 이름” 항목을 입력해 주세요.');
    expect(await refusal(activationCalls.redeem, { Key: 'K'.repeat(65) }, 'it')).toBe('Il campo «Cdkey» può contenere al massimo 64 caratteri.');
    expect(await refusal(raffleCalls.forthwithRaffle, { ClientSeed: 'seed\u0000' }, 'zh-TW')).toBe('「用戶端種子」的格式不正確，請檢查。');
  });

  it('leave a field its own message, and a field nobody types a bad request', async () => {
    expect(await refusal(accountCalls.updateNickname, { NickName: 'x'.repeat(201) }, 'en')).toMatch(/^A nickname must be \d+ to \d+ characters long\.$/);
    expect(await refusal(identity.sendSmsCode, { Phone: 'abc' }, 'en')).toMatch(/^Please enter a valid phone number/);
    expect(await refusal(commerceCalls.pay, { Method: 'x'.repeat(21) }, 'en')).toBe('The request is not valid. Please check what you entered.');
  });
});

/** A raw HTTP/1.1 exchange: what the server answered, and whether it then closed the connection. */
function exchange(head: string): Promise<{ answer: string; closedByServer: boolean; socket: Socket }> {
  return new Promise((resolve, reject) => {
    const socket = connect((t.app.server.address() as { port: number }).port, '127.0.0.1');
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk));
    socket.on('end', () => resolve({ answer, closedByServer: true, socket }));
    socket.on('error', reject);
    socket.write(head);
    // A server that keeps the socket open never ends it: say so after a while.
    setTimeout(() => resolve({ answer, closedByServer: false, socket }), 3_000).unref();
  });
}

describe('connections', () => {
  beforeAll(async () => {
    await t.app.listen({ port: 0, host: '127.0.0.1' });
  });

  it('refuses and closes WebSocket upgrades to anything but the hub', async () => {
    const upgrade = (path: string) =>
      `GET ${path} HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    const results = await Promise.all(
      Array.from({ length: 100 }, (_, i) => exchange(upgrade(['/', '/en/download', '/api/nothing-here', '/favicon.svg'][i % 4]))),
    );
    for (const result of results) {
      expect(result.answer).toMatch(/^HTTP\/1\.1 404 /);
      expect(result.closedByServer).toBe(true);
      result.socket.destroy();
    }
    const open = await new Promise<number>((resolve) => t.app.server.getConnections((_, count) => resolve(count)));
    expect(open).toBe(0);
  });

  it('answers before reading a large body (413 for its size, then 429 for the rate) only once it has read it, so the client sees the answer, not a reset', async () => {
    // A client in its own process, as a real one is, still sending when the server has decided.
    const client = `
      const net = require('node:net');
      const [port, size, path, type] = process.argv.slice(1);
      const one = () => new Promise((done) => {
        const socket = net.connect(+port, '127.0.0.1', () => {
          socket.write('POST ' + path + ' HTTP/1.1\\r\\nHost: localhost\\r\\nContent-Type: ' + type + '\\r\\nContent-Length: ' + size + '\\r\\n\\r\\n');
          const chunk = Buffer.alloc(16384, 97);
          let sent = 0;
          const pump = () => { while (sent < +size) { sent += chunk.length; if (!socket.write(chunk)) return void socket.once('drain', pump); } };
          // The body follows a moment after the headers, as over a slow link: the server has seen the length by then.
          setTimeout(pump, 200);
        });
        let answer = '';
        socket.on('data', (data) => (answer += data));
        socket.on('error', (error) => done(error.code));
        socket.on('close', () => done(answer.split('\\r\\n')[0]));
      });
      (async () => { const seen = []; for (let i = 0; i < 6; i++) seen.push(await one()); console.log(JSON.stringify(seen)); })();`;
    // Well over the kernel's socket buffers, and under what the server reads before giving up.
    const size = 960 * 1024;
    // Four logins a minute: the fifth and sixth are refused before their body is read.
    const limited = await startApp({ IDENTITY_RATE_LIMIT_PER_MINUTE: '4' });
    try {
      await limited.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = limited.app.server.address() as { port: number };
      const { stdout } = await run(process.execPath, [
        '-e',
        client,
        String(port),
        String(size),
        `/api${identity.loginByPassword.path}`,
        encryption.contentType,
      ]);
      expect(JSON.parse(stdout)).toEqual([...Array(4).fill('HTTP/1.1 413 Payload Too Large'), ...Array(2).fill('HTTP/1.1 429 Too Many Requests')]);
    } finally {
      await limited.close();
    }
  });
});

describe('connections reset mid-request', () => {
  it('cost no error-level log line (the rate limit does without the address)', async () => {
    const lines: string[] = [];
    const logged = await startApp({ LOG_LEVEL: 'warn' }, { logStream: { write: (line) => void lines.push(line) } });
    try {
      await logged.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = logged.app.server.address() as { port: number };
      // What the server makes of those connections, to know when it is done with them. Its own handlers come first:
      // they were added when it was made.
      let closed = 0;
      const answers: ServerResponse[] = [];
      logged.app.server.on('connection', (socket: Socket) => socket.on('close', () => closed++));
      logged.app.server.on('request', (_request: IncomingMessage, answer: ServerResponse) => answers.push(answer));
      await Promise.all(
        Array.from(
          { length: 200 },
          () =>
            new Promise<void>((resolve) => {
              const socket = connect(port, '127.0.0.1', () => {
                socket.write(
                  `POST /api${identity.refreshUserInfo.path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}`,
                );
                socket.resetAndDestroy();
                resolve();
              });
              socket.on('error', () => resolve());
            }),
        ),
      );
      // The kernel hands the server every connection, reset or not, many only after the clients are done. Once it has
      // closed all 200 and answered every request it read from them, nothing more can happen, or be logged, about them.
      const doneWith = () => closed === 200 && answers.every((answer) => answer.writableEnded);
      await expect.poll(doneWith, { timeout: 10_000 }).toBe(true);
      const errors = lines.map((line) => JSON.parse(line) as { level: number; msg: string }).filter((line) => line.level >= 50);
      expect(errors).toEqual([]);
    } finally {
      await logged.close();
    }
  });
});
