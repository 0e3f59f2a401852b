/**
 * Login codes and e-mails through the providers a shop in China uses, end to
 * end (issue 45): a production instance of the release, its SMS_PROVIDER
 * `tencent` and then `aliyun`, each pointed at a fake of the provider written
 * from its public documents (../setup/fake-*-sms.ts: they check the requests'
 * signatures as the providers do), and EMAIL_PROVIDER `smtp` pointed at a real
 * SMTP server with STARTTLS (../setup/smtp-catcher.ts). A customer in Chromium
 * logs in with the code the provider was given, and binds an e-mail address
 * through the link that arrived by SMTP.
 */
import { expect, test, type Page } from '@playwright/test';
import path from 'node:path';
import { productionSettings } from '../integration/production-settings.ts';
import { say } from '../e2e/routes.ts';
import { startFakeAliyunSms, type FakeAliyunSms } from '../setup/fake-aliyun-sms.ts';
import { startFakeTencentSms, type FakeTencentSms } from '../setup/fake-tencent-sms.ts';
import { startSmtpCatcher, type SmtpCatcher } from '../setup/smtp-catcher.ts';
import { installRelease } from './install.ts';
import { startReleaseInstance, type ReleaseInstance } from './release-instance.ts';

const root = path.resolve(import.meta.dirname, '../..');

let release: string;
let tencent: FakeTencentSms;
let aliyun: FakeAliyunSms;
let mail: SmtpCatcher;
let instance: ReleaseInstance | null = null;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(300_000);
  release = await installRelease(root);
  tencent = await startFakeTencentSms();
  aliyun = await startFakeAliyunSms();
  mail = await startSmtpCatcher();
});

test.afterAll(async () => {
  instance?.remove();
  await Promise.all([tencent?.close(), aliyun?.close(), mail?.close()]);
});

/** A production instance with these SMS settings, and e-mail over SMTP to the catcher. */
async function startWith(sms: Record<string, string>): Promise<ReleaseInstance> {
  instance?.remove();
  instance = await startReleaseInstance(release, { ...productionSettings, ...mail.settings, ...sms });
  return instance;
}

let seq = 0;
const newPhone = () => `1390045${String(++seq).padStart(4, '0')}`;

/** Logs in on the login page with the code `codeOf` reads where the provider received it. */
async function logIn(page: Page, origin: string, phone: string, codeOf: () => string | undefined): Promise<void> {
  await page.goto(`${origin}/en/account/login`);
  await page.getByRole('checkbox').check();
  await page.locator('input[name="phone"]').fill(phone);
  await page.getByRole('button', { name: 'Send code' }).click();
  let code: string | undefined;
  await expect.poll(() => (code = codeOf())).toMatch(/^\d{6}$/);
  await page.locator('input[name="code"]').fill(code!);
  await page.getByRole('button', { name: 'Log in / Register' }).click();
  await page.waitForURL((url) => !url.pathname.endsWith('/account/login'));
}

test('Tencent Cloud SMS: a customer logs in with the code sent through it, and binds an e-mail address through the link sent over SMTP', async ({ page }) => {
  const { origin } = await startWith(tencent.settings);
  const phone = newPhone();
  const codesTo = () => tencent.received.filter((sms) => sms.phoneNumber === `+86${phone}`);
  await logIn(page, origin, phone, () => codesTo().at(-1)?.params[0]);
  expect(codesTo()).toEqual([expect.objectContaining({ kind: 'loginCode', international: false, signName: tencent.signName })]);

  // The change is proved with a code to the phone (the account code's template), then the link goes by e-mail.
  const email = `customer-${Date.now()}@example.com`;
  await page.goto(`${origin}/en/account/center/bind`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('label:has(input[name=emailCode]) button').click();
  await expect.poll(() => codesTo().at(-1)?.kind).toBe('accountCode');
  await page.locator('input[name=emailCode]').fill(codesTo().at(-1)!.params[0]);
  await page.getByRole('button', { name: say('en', 'account.bind.sendLink') }).click();
  await expect(page).toHaveURL(/\/en\/account\/center\/safe\/confirmemail$/);

  await expect.poll(() => mail.received.filter((each) => each.to === email).length).toBe(1);
  const [letter] = mail.received.filter((each) => each.to === email);
  expect(letter.html).toContain('lang="en"');
  const link = /https?:\/\/\S+\/verification\/email\/confirm\?token=\S+/.exec(letter.text)![0];
  expect(link.startsWith(`${origin}/en/`)).toBe(true);
  await page.goto(link);
  await expect(page).toHaveURL(/status=confirmed/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(say('en', 'email.done.title'));
});

test('Aliyun SMS: a customer logs in with the code sent through it', async ({ page }) => {
  const { origin } = await startWith(aliyun.settings());
  const phone = newPhone();
  await logIn(page, origin, phone, () => aliyun.received.filter((sms) => sms.phoneNumber === phone).at(-1)?.params.code);
  await page.goto(`${origin}/en/account/center/bind`);
  await expect(page.locator('[data-current-phone]')).toBeVisible();
});
