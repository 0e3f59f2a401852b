/**
 * What a deployment can rely on: development stand-ins never reach
 * production, secrets stay out of console output and admin.json, and the
 * server starts, refuses, and closes as an operator expects.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { WebSocket } from 'ws';
import { dev, devIdentityProvider } from '#contract/dev.ts';
import { externalLogin } from '#contract/external-login.ts';
import { ErrorCode } from '#contract/errors.ts';
import { identity } from '#contract/identity.ts';
import { hubPath } from '#contract/realtime.ts';
import { buildApp } from '../../server/app.ts';
import { ConfigError, demoSeller, loadConfig } from '../../server/config.ts';
import { loadSecret } from '../../server/crypto/key-folder.ts';
import { alipaySandboxGatewayPath, alipaySandboxScanPath } from '../../server/services/alipay-sandbox.ts';
import { sandboxPhonePagePath } from '../../server/services/wechatpay-sandbox.ts';
import { signToken } from '../../server/crypto/signed.ts';
import { adminFilePath } from '../../server/modules/admin/admin-file.ts';
import { startApp } from './api/harness.ts';
import { productionSettings as gateways } from './production-settings.ts';
import { runServer } from './server-process.ts';

const refusal = (env: Record<string, string>) => {
  try {
    loadConfig({ NODE_ENV: 'production', ...env });
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as Error).message;
  }
  throw new Error('the configuration was accepted');
};

describe('production refuses the development stand-ins', () => {
  it('names each unsafe setting and what to set instead', () => {
    const defaults = refusal({});
    expect(defaults).toMatch(/SMS_PROVIDER=dev is the development outbox.*set SMS_PROVIDER to aliyun, tencent or http, with their settings/);
    expect(defaults).toMatch(/EMAIL_PROVIDER=dev is the development outbox.*set EMAIL_PROVIDER to smtp or http/);

    const smsOnly = refusal({ ...gateways, SMS_PROVIDER: 'dev' });
    expect(smsOnly).toMatch(/SMS_PROVIDER/);
    expect(smsOnly).not.toMatch(/EMAIL_PROVIDER/);

    expect(refusal({ ...gateways, DEMO_DATA: 'true' })).toMatch(/DEMO_DATA.*set DEMO_DATA=false/);
    expect(refusal({ ...gateways, PAYMENT_PROVIDER: 'sandbox' })).toMatch(/PAYMENT_PROVIDER=sandbox lets anyone approve their own payments/);
    expect(refusal({ ...gateways, WECHATPAY_APIV3_KEY: '' })).toMatch(/WECHATPAY_APIV3_KEY/);
    const { WECHATPAY_NOTIFY_URL: _, ...withoutNotify } = gateways;
    expect(refusal(withoutNotify)).toMatch(/required when PAYMENT_PROVIDER=wechatpay[\s\S]*WECHATPAY_NOTIFY_URL/);
    const { STORE_URL: __, ...withoutStore } = gateways;
    expect(refusal(withoutStore)).toMatch(/required in production[\s\S]*→ at STORE_URL/);
    // Unset, receipts would name the demo shop; empty, as a settings file writes it, is unset too.
    for (const SELLER_NAME of [undefined, ' ']) {
      const seller = refusal({ ...gateways, SELLER_NAME } as Record<string, string>);
      expect(seller).toMatch(/required in production: receipts name the seller[\s\S]*→ at SELLER_NAME/);
    }
    expect(loadConfig({ NODE_ENV: 'production', ...gateways }).DEMO_DATA).toBe(false);
  });

  it('refuses a message provider half described, naming each missing setting and template', () => {
    const tencent = refusal({ ...gateways, SMS_PROVIDER: 'tencent', TENCENT_SMS_SECRET_ID: 'AKIDexample', TENCENT_SMS_SDK_APP_ID: '1400000000' });
    for (const key of ['TENCENT_SMS_SECRET_KEY', 'TENCENT_SMS_SIGN_NAME', 'TENCENT_SMS_TEMPLATES'])
      expect(tencent).toMatch(new RegExp(`required when SMS_PROVIDER=tencent[\\s\\S]*→ at ${key}`));
    expect(tencent).not.toMatch(/at TENCENT_SMS_SECRET_ID/);

    const aliyun = {
      ...gateways,
      SMS_PROVIDER: 'aliyun',
      ALIYUN_SMS_ACCESS_KEY_ID: 'LTAIexample',
      ALIYUN_SMS_ACCESS_KEY_SECRET: 'secret',
      ALIYUN_SMS_SIGN_NAME: 'Beacon',
      ALIYUN_SMS_TEMPLATES: 'loginCode=SMS_1,accountCode=SMS_1',
    };
    expect(refusal(aliyun)).toMatch(/has no template for passwordSet, passwordChanged, .*renewalLapsed[\s\S]*→ at ALIYUN_SMS_TEMPLATES/);
    expect(refusal({ ...aliyun, ALIYUN_SMS_TEMPLATES: 'loginCod=SMS_1' })).toMatch(/"loginCod=SMS_1" is not kind=template/);

    const smtp = refusal({ ...gateways, EMAIL_PROVIDER: 'smtp', SMTP_URL: 'smtps://mailer:secret@smtp.example.com' });
    expect(smtp).toMatch(/required when EMAIL_PROVIDER=smtp[\s\S]*→ at EMAIL_FROM/);
    expect(refusal({ ...gateways, DKIM_DOMAIN: 'example.com' })).toMatch(/the DKIM_\* settings go together[\s\S]*→ at DKIM_SELECTOR/);
  });

  it('takes the reference deployment’s settings file once its sealing key is filled in, and an API origin only as an origin', () => {
    const example = Object.fromEntries(
      readFileSync(path.join(import.meta.dirname, '../../deploy/api.env.example'), 'utf8')
        .split('\n')
        .map((line) => /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line))
        .filter((match) => match !== null)
        .map((match) => [match[1], match[2]]),
    );
    // The one line that has no value that could work: a sealing key everybody knows would seal nothing.
    expect(() => loadConfig(example)).toThrow(/make one with `openssl rand -hex 32`\n.*at KEYS_SEALING_KEY/);
    expect(loadConfig({ ...example, KEYS_SEALING_KEY: randomBytes(32).toString('hex') })).toMatchObject({
      NODE_ENV: 'production',
      TRUST_PROXY: true,
      DEMO_DATA: false,
      PAYMENT_PROVIDER: ['wechatpay'],
    });

    expect(loadConfig({ PUBLIC_API_ORIGIN: 'https://api.beacon.test/' }).PUBLIC_API_ORIGIN).toBe('https://api.beacon.test');
    expect(() => loadConfig({ PUBLIC_API_ORIGIN: 'https://api.beacon.test/v1' })).toThrow(/must be an origin only[\s\S]*PUBLIC_API_ORIGIN/);
  });

  it('runs the server with npm start’s Node flags in the reference deployment’s unit too', () => {
    const root = path.join(import.meta.dirname, '../..');
    const { scripts } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
    const unit = readFileSync(path.join(root, 'deploy/systemd/beacon-api@.service'), 'utf8');
    const execStart = /^ExecStart=\S+\/node (.*)$/m.exec(unit)?.[1];
    expect(scripts.start).toMatch(/^node --\S+/);
    expect(execStart).toBe(scripts.start.replace(/^node /, ''));
  });

  it('names the demo shop on receipts outside production, whole or not at all', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' })).toMatchObject(demoSeller);
    const named = loadConfig({ DATABASE_URL: 'memory://', SELLER_NAME: 'Beacon Ltd.', SELLER_ADDRESS: '' });
    expect([named.SELLER_NAME, named.SELLER_ADDRESS, named.SELLER_TAX_ID, named.SELLER_CONTACT]).toEqual(['Beacon Ltd.', undefined, undefined, undefined]);
  });

  it('seeds demo data only into an embedded database, unless asked', () => {
    expect(loadConfig({ DATABASE_URL: 'memory://' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'file://./data/db' }).DEMO_DATA).toBe(true);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@localhost/beacon' }).DEMO_DATA).toBe(false);
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@localhost/beacon', DEMO_DATA: 'true' }).DEMO_DATA).toBe(true);
  });

  it('has no /api/dev routes in production, and offers only the quick logins it has credentials for, at the real providers', { timeout: 30_000 }, async () => {
    const app = await buildApp(
      loadConfig({
        NODE_ENV: 'production',
        ...gateways,
        DATABASE_URL: 'memory://',
        DATA_DIR: mkdtempSync(path.join(tmpdir(), 'beacon-prod-')),
        LOG_LEVEL: 'silent',
      }),
    );
    try {
      const devPages = [
        `/api${dev.outbox.path}?to=13900000000`,
        '/api/dev/anything',
        `/api${devIdentityProvider.path}/steam`,
        `/api${sandboxPhonePagePath}?prepay_id=0123456789abcdef`,
        `/api${alipaySandboxGatewayPath}?method=alipay.trade.wap.pay`,
        `/api${alipaySandboxScanPath}?code=bax00000000000000000`,
      ];
      for (const url of devPages) {
        const response = await app.inject({ url });
        expect(response.statusCode).toBe(404);
        expect(response.json()).toMatchObject({ code: 404, data: null });
      }
      // The sandbox's phone page is the site's, in every locale: not found either.
      for (const url of ['/wechatpay', '/en/wechatpay', '/ja/wechatpay/', '/zh-tw/wechatpay/index.html']) {
        const page = await app.inject({ url });
        expect(page.statusCode, url).toBe(404);
      }
      expect((await app.inject({ url: '/en/payment' })).statusCode).toBe(200);
      const providers = await app.inject({ url: `/api${externalLogin.providers.path}` });
      expect(providers.json().data).toEqual([{ Provider: 'steam', CheckUrl: 'https://steamcommunity.com/favicon.ico' }]);
    } finally {
      await app.close();
    }
  });

  it('an SMS or e-mail gateway that cannot be reached answers 502 in the reader’s language with the request id to quote, and the code it could not send does not count', async () => {
    const t = await startApp({ ...gateways, LOG_LEVEL: 'silent', TRUST_PROXY: 'true' });
    try {
      const phone = '13900000123';
      for (let attempt = 0; attempt < 2; attempt++) {
        const requestId = `nginx-attempt-${attempt}`;
        const refused = await t.call(identity.sendSmsCode, { body: { Phone: phone }, locale: 'ru', headers: { 'x-request-id': requestId } });
        expect(refused.status).toBe(502);
        expect(refused.body).toEqual({
          code: ErrorCode.MessageNotSent,
          message: `Сейчас не удалось отправить SMS. Повторите попытку чуть позже. Если ошибка повторится, сообщите нам номер ${requestId}.`,
          data: null,
        });
      }
    } finally {
      await t.close();
    }
  });

  it('a production start with default settings stops with the message', { timeout: 30_000 }, async () => {
    const server = await runServer({ NODE_ENV: 'production', DATA_DIR: mkdtempSync(path.join(tmpdir(), 'beacon-prod-')) });
    expect(await server.exit).toBe(1);
    expect(server.stderr()).toMatch(/Invalid configuration:[\s\S]*SMS_PROVIDER[\s\S]*EMAIL_PROVIDER/);
  });
});

describe('development stand-ins', () => {
  afterEach(() => vi.restoreAllMocks());

  it('say plainly that they are on, and log codes through the logger, never console.log', { timeout: 30_000 }, async () => {
    const lines: string[] = [];
    const print = vi.spyOn(console, 'log');
    const t = await startApp({ LOG_LEVEL: 'info' }, { logStream: { write: (line) => void lines.push(line) } });
    try {
      expect((await t.call(identity.sendSmsCode, { body: { Phone: '13900001234' } })).body.code).toBe(200);
      const messages = lines.map((line) => (JSON.parse(line) as { msg: string }).msg);
      expect(messages).toContainEqual(expect.stringMatching(/^Development stand-ins are on: .*SMS_PROVIDER \(aliyun, tencent or http\)/));
      expect(messages).toContainEqual(expect.stringMatching(/^\[dev sms\] to 13900001234: .*\d{6}/));
      expect(print).not.toHaveBeenCalled();
    } finally {
      await t.close();
    }
  });
});

describe('npm start', () => {
  it('tells the CLI where it is without the database URL, and on SIGTERM tells hub clients to reconnect and exits cleanly', { timeout: 60_000 }, async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'beacon-main-'));
    // A URL with a password: it must not be written down.
    const server = await runServer({ DATA_DIR: dataDir, DATABASE_URL: `file://${dataDir}/db?password=hunter2-secret` });
    const port = await server.listening();

    const adminFile = readFileSync(adminFilePath(dataDir), 'utf8');
    expect(Object.keys(JSON.parse(adminFile)).sort()).toEqual(['database', 'port', 'token']);
    expect(adminFile).not.toContain('hunter2');

    // The demo user (id 1) on a hub connection.
    const hubToken = signToken(loadSecret(dataDir), 'hub', { sub: 1, exp: Date.now() + 60_000 });
    const negotiate = await (await fetch(`http://127.0.0.1:${port}/api${hubPath}/negotiate?negotiateVersion=1`, { method: 'POST' })).json();
    const socket = new WebSocket(`ws://127.0.0.1:${port}/api${hubPath}?id=${negotiate.connectionToken}&access_token=${hubToken}`);
    const frames: string[] = [];
    socket.on('message', (data) => frames.push(...String(data).split('\x1e').filter(Boolean)));
    await new Promise((resolve) => socket.once('open', resolve));
    socket.send('{"protocol":"json","version":1}\x1e');
    await expect.poll(() => frames).toContain('{}');

    server.child.kill('SIGTERM');
    expect(await server.exit).toBe(0);
    expect(frames.map((frame) => JSON.parse(frame))).toContainEqual({ type: 7, allowReconnect: true });
    expect(() => readFileSync(adminFilePath(dataDir))).toThrow();
  });
});
