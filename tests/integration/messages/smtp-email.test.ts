/**
 * E-mail over SMTP (`EMAIL_PROVIDER=smtp`) through the real app, to a real SMTP server in the test
 * (tests/setup/smtp-catcher.ts): the login code and the confirmation link arrive over STARTTLS from EMAIL_FROM, with a
 * plain-text and an HTML part in the reader's language, signed with DKIM; the server's refusals are answered by why
 * (a recipient it refuses 400, wrong credentials 503 and the operators' log line, a server that hangs 502 within
 * PROVIDER_TIMEOUT_MS), and a code that was not sent counts against nothing. In production an `smtp://` server that
 * offers no STARTTLS is never sent to in clear.
 */
import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { dkimVerify } from 'mailauth/lib/dkim/verify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accountCalls } from '#contract/account.ts';
import { ErrorCode } from '#contract/errors.ts';
import { identity } from '#contract/identity.ts';
import { sitePageUrl } from '../../../server/config.ts';
import { verificationCodes } from '../../../server/db/schema.ts';
import { message } from '../../../server/i18n/messages.ts';
import { StartupError } from '../../../server/startup-error.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../../setup/smtp-catcher.ts';
import { ageCodes, lastCode, loginBySms } from '../api/codes.ts';
import { startApp, type TestApp } from '../api/harness.ts';
import { productionSettings } from '../production-settings.ts';

/** Short, so the server that hangs is given up on soon. */
const providerTimeoutMs = 1_000;

const keys = mkdtempSync(path.join(tmpdir(), 'beacon-dkim-'));
const dkimKey = generateKeyPairSync('rsa', { modulusLength: 2048 });
const dkimKeyFile = path.join(keys, 'dkim.pem');
writeFileSync(dkimKeyFile, dkimKey.privateKey.export({ type: 'pkcs8', format: 'pem' }));
writeFileSync(path.join(keys, 'not-a-key.pem'), 'not a key');
const dkim = { DKIM_DOMAIN: 'beacon.test', DKIM_SELECTOR: 'mail2026', DKIM_PRIVATE_KEY_FILE: dkimKeyFile };
/** The DKIM record the signing domain publishes: `mail2026._domainkey.beacon.test TXT "v=DKIM1; k=rsa; p=…"`. */
const dkimRecord = `v=DKIM1; k=rsa; p=${dkimKey.publicKey.export({ type: 'spki', format: 'der' }).toString('base64')}`;

let catcher: SmtpCatcher;
let t: TestApp;
/** E-mail by `server`, or by it at another SMTP_URL. */
const smtpSettings = (server: SmtpCatcher, url = server.url) => ({ ...server.settings, SMTP_URL: url, PROVIDER_TIMEOUT_MS: String(providerTimeoutMs) });

beforeAll(async () => {
  catcher = await startSmtpCatcher();
  catcher.trust();
  t = await startApp({ ...smtpSettings(catcher), ...dkim, SITE_URL: 'https://beacon.test', IDENTITY_RATE_LIMIT_PER_MINUTE: '4000' });
});
afterAll(async () => {
  await t?.close();
  await catcher?.close();
});

let seq = 0;
const newEmail = (what: string) => `${what}-${++seq}@mail.beacon.test`;
const sendCode = (app: TestApp, Email: string, locale = 'en') => app.call(identity.sendEmailCode, { body: { Email }, locale });
const codeIn = (text: string) => /\b\d{6}\b/.exec(text)![0];
const rowsTo = async (target: string) => (await t.app.db.select().from(verificationCodes).where(eq(verificationCodes.target, target))).length;

/** What an HTML part may not hold: anything a mail client would fetch, and scripts. */
function expectSelfContained(html: string) {
  expect(html).not.toMatch(/<(script|img|link|svg|style|iframe|object)\b|<[^>]*\ssrc=|@import|url\(/i);
}

describe('a login code by e-mail', () => {
  it.each(['ja', 'ru'] as const)('arrives over STARTTLS from EMAIL_FROM in %s, with the code in its text and HTML parts, and logs in', async (locale) => {
    const Email = newEmail(`code-${locale}`);
    expect((await sendCode(t, Email, locale)).status).toBe(200);
    const mail = await catcher.waitFor(Email);
    expect(mail.secure).toBe(true);
    expect([mail.from, mail.to]).toEqual(['no-reply@beacon.test', Email]);
    const { parsed, html } = mail;
    expect(parsed.from?.value).toEqual([{ name: 'Beacon Toolkit', address: 'no-reply@beacon.test' }]);
    expect(parsed.to && !Array.isArray(parsed.to) && parsed.to.value.map((each) => each.address)).toEqual([Email]);
    expect(mail.subject).toBe(message(locale, 'emailSubject'));
    const code = codeIn(mail.text);
    expect(mail.text.trim()).toBe(message(locale, 'emailText', { code }));

    expect(html).toMatch(new RegExp(`<html lang="${locale}"`));
    expect(html).toContain(code);
    expect(html).toContain('Beacon Toolkit');
    expect(html).toContain(`href="${sitePageUrl(t.app.config, locale, '/')}"`);
    // The sentences of the text, in the reader's language.
    expect(html).toContain(message(locale, 'emailText', { code }).split(code)[1].trim().slice(0, 12));
    expectSelfContained(html);

    const registered = await t.call(identity.registerByEmail, { body: { Email, Code: code, Password: 'long enough 1', DeviceId: `device-${Email}` } });
    expect(registered.body.code).toBe(200);
    expect(registered.body.data.User.Email).toBe(Email);
  });

  it('is signed with DKIM: the signature verifies against the published key, and not once the text is changed', async () => {
    const Email = newEmail('dkim');
    expect((await sendCode(t, Email)).status).toBe(200);
    const { raw, parsed, text } = await catcher.waitFor(Email);
    expect(parsed.headers.get('dkim-signature')).toBeDefined();
    const resolver = async (name: string, type: string) => {
      if (name === 'mail2026._domainkey.beacon.test' && type === 'TXT') return [[dkimRecord]];
      throw Object.assign(new Error(`no ${type} record for ${name}`), { code: 'ENOTFOUND' });
    };
    // Strict: as RFC 6376 and RFC 8301 say, no leniency.
    const verified = await dkimVerify(raw, { resolver, strict: true });
    expect(verified.results.map((result) => [result.status.result, result.signingDomain, result.selector])).toEqual([['pass', 'beacon.test', 'mail2026']]);
    // Covers the From, and the body: a code changed on the way no longer verifies.
    expect(verified.results[0].signingHeaders?.keys.toLowerCase()).toContain('from');
    const code = codeIn(text);
    const altered = Buffer.from(raw.toString('latin1').replaceAll(code, code === '000000' ? '111111' : '000000'), 'latin1');
    expect((await dkimVerify(altered, { resolver, strict: true })).results[0].status).toMatchObject({ result: 'fail', comment: 'body hash did not verify' });
  });
});

describe('the e-mail confirmation link', () => {
  it('arrives with its button, and the link confirms the address', async () => {
    const phone = `1391${String(Date.now()).slice(-7)}`;
    const { AccessToken: token } = await loginBySms(t, phone, `device-${phone}`);
    await ageCodes(t, phone);
    expect((await t.call(accountCalls.sendOwnCode, { token, body: { Channel: 'sms' } })).status).toBe(200);
    const Email = newEmail('bind');
    const bound = await t.call(accountCalls.bindEmail, { token, body: { Email, Code: await lastCode(t, phone) }, locale: 'ru' });
    expect(bound.body.code).toBe(200);

    const { subject, text, html } = await catcher.waitFor(Email);
    expect(subject).toBe(message('ru', 'emailLinkSubject'));
    const link = /https:\/\/beacon\.test\/ru\/verification\/email\/confirm\?token=\S+/.exec(text)![0];
    // The button: an anchor to the link whose text is the button's label.
    expect(html).toMatch(new RegExp(`<a href="${link.replace(/[.?]/g, '\\$&')}"[^>]*>${message('ru', 'emailLinkButton')}</a>`));
    expectSelfContained(html);

    const confirmed = await t.call(accountCalls.confirmEmail, { body: { Token: new URL(link).searchParams.get('token')! } });
    expect(confirmed.body.data).toMatchObject({ Email });
  });
});

describe('a refusal of the mail server', () => {
  it('of the recipient (550) answers 400 naming the address; a temporary one (450) 502, relaying denied 503; none counts a code', async () => {
    const refused = newEmail('unknown');
    catcher.rejectRecipient(refused);
    const reply = await sendCode(t, refused, 'ja');
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ code: ErrorCode.RecipientUnreachable, message: message('ja', 'emailUnreachable', { to: refused }) });

    const busy = newEmail('busy');
    catcher.rejectRecipient(busy, `450 4.2.1 <${busy}>: Mailbox busy, try again later`);
    expect((await sendCode(t, busy)).body.code).toBe(ErrorCode.MessageNotSent);
    // A refusal of policy (x.7.x) is not the address's fault: the server will not relay for this sender.
    const elsewhere = newEmail('relay');
    catcher.rejectRecipient(elsewhere, `554 5.7.1 <${elsewhere}>: Relay access denied`);
    expect((await sendCode(t, elsewhere)).body.code).toBe(ErrorCode.MessagingUnavailable);

    for (const address of [refused, busy, elsewhere]) {
      expect(await rowsTo(address), address).toBe(0);
      expect(catcher.to(address), address).toEqual([]);
    }
  });

  it('of the credentials (535) answers 503 and logs the line an operator’s alert matches', async () => {
    const lines: string[] = [];
    const wrong = catcher.url.replace(/:[^:@/]+@/, ':not-the-password@');
    const app = await startApp({ ...smtpSettings(catcher, wrong), LOG_LEVEL: 'warn' }, { logStream: { write: (line) => void lines.push(line) } });
    try {
      const Email = newEmail('auth');
      const reply = await sendCode(app, Email);
      expect(reply.status).toBe(503);
      expect(reply.body.code).toBe(ErrorCode.MessagingUnavailable);
      const logged = lines.map((line) => JSON.parse(line) as { msg: string; providerCode?: string });
      expect(logged).toContainEqual(expect.objectContaining({ msg: 'message provider refused: smtp 535 5.7.8', providerCode: '535 5.7.8' }));
      expect(catcher.to(Email)).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('a mail server that does not answer', () => {
  it(`is given up on within PROVIDER_TIMEOUT_MS (${providerTimeoutMs} ms): 502, nothing counted, and the next send goes through`, async () => {
    const Email = newEmail('hang');
    catcher.stall(true);
    let began = Date.now();
    const reply = await sendCode(t, Email, 'ru').finally(() => catcher.stall(false));
    expect(Date.now() - began).toBeLessThan(providerTimeoutMs + 1_000);
    expect(reply.status).toBe(502);
    expect(reply.body.message).toMatch(/^Сейчас не удалось отправить письмо/);
    expect(await rowsTo(Email)).toBe(0);

    began = Date.now();
    expect((await sendCode(t, Email)).status).toBe(200);
    expect(Date.now() - began).toBeLessThan(providerTimeoutMs);
    expect(catcher.to(Email)).toHaveLength(1);
  });
});

describe('in production', () => {
  const production = (server: SmtpCatcher) =>
    startApp({ NODE_ENV: 'production', ...productionSettings, ...smtpSettings(server), SITE_URL: 'https://beacon.test' });

  it('sends only over STARTTLS to a certificate it trusts: a server in clear or with a stranger’s certificate is refused (503)', async () => {
    const [clear, stranger] = await Promise.all([startSmtpCatcher({ starttls: false }), startSmtpCatcher()]);
    const apps = await Promise.all([production(clear), production(stranger), production(catcher)]);
    try {
      const [inClear, toStranger, sending] = apps;
      const Email = newEmail('production');
      for (const [app, server] of [
        [inClear, clear],
        [toStranger, stranger],
      ] as const) {
        const refused = await sendCode(app, Email);
        expect(refused.status).toBe(503);
        expect(refused.body.code).toBe(ErrorCode.MessagingUnavailable);
        expect(server.received).toEqual([]);
      }
      expect((await sendCode(sending, Email)).status).toBe(200);
      expect((await catcher.waitFor(Email)).secure).toBe(true);
    } finally {
      await Promise.all([...apps.map((app) => app.close()), clear.close(), stranger.close()]);
    }
  });
});

describe('the start', () => {
  it.each([
    ['a file that is not there', path.join(keys, 'missing.pem'), /DKIM_PRIVATE_KEY_FILE=.*missing\.pem cannot be read/],
    ['a file that holds no key', path.join(keys, 'not-a-key.pem'), /DKIM_PRIVATE_KEY_FILE=.*not-a-key\.pem holds no private key/],
  ])('stops on a DKIM key in %s, naming the setting', async (_, file, said) => {
    const start = startApp({ ...smtpSettings(catcher), ...dkim, DKIM_PRIVATE_KEY_FILE: file });
    await expect(start).rejects.toThrow(StartupError);
    await expect(start).rejects.toThrow(said);
  });
});
