import { expect, test, type Page } from '@playwright/test';
import sharp from 'sharp';
import { accountCalls } from '#contract/account.ts';
import { activationCalls } from '#contract/activation.ts';
import { formatPrice } from '#contract/facts.ts';
import { dev } from '#contract/dev.ts';
import { deviceCalls } from '#contract/device-login.ts';
import { identity } from '#contract/identity.ts';
import { newCdkeys } from './admin-cli.ts';
import { overflowOf } from './overflow.ts';
import { fitsInBothThemes } from './page-checks.ts';
import { say } from './routes.ts';
import { codeSentBy, keep, lastCode, newPhone, outbox, sealedCall, signInAsDemo, signInFresh } from './session.ts';
import type { AuthToken } from '@/lib/auth-token.ts';

const masked = (phone: string) => `${phone.slice(0, 3)}****${phone.slice(-4)}`;

/** Signs the account in on a second device (the desktop client's sign-in, approved by this login): a session a change signs out. */
async function secondDevice(page: Page, auth: AuthToken): Promise<string> {
  const request = await sealedCall(page, deviceCalls.start, { DeviceId: 'e2e-device-0009', DeviceName: 'E2E-PC' });
  await sealedCall(page, deviceCalls.decide, { UserCode: request.UserCode, Approve: true }, auth.AccessToken);
  return (await sealedCall(page, deviceCalls.poll, { DeviceCode: request.DeviceCode })).AccessToken;
}

/** Whether a device's login still works. */
const stillSignedIn = (page: Page, token: string) =>
  sealedCall(page, identity.sessions, {}, token).then(
    () => true,
    () => false,
  );

test('the profile page shows the logged-in user, where login lands', async ({ page }) => {
  await signInAsDemo(page);
  await page.goto('/en/account/center/info');
  const user = await page.evaluate(() => JSON.parse(localStorage.getItem('beacon.user')!) as { NickName: string; Phone: string });
  const profile = page.locator('[data-profile]');
  await expect(profile.locator('[data-nickname]')).toHaveText(user.NickName);
  await expect(profile.locator('[data-phone]')).toHaveText(user.Phone);
  await expect(profile).toContainText('Member since');
  await expect(page.locator('[data-sign-in-prompt]')).toBeHidden();

  await page.goto('/ja/account/center/info');
  await expect(page.locator('[data-profile]')).toContainText('登録日');
});

test('a logged-in visitor never sees a login prompt on public pages, not even before scripts run', async ({ page }) => {
  await page.goto('/en/activate/cdkey');
  await expect(page.locator('[data-sign-in-prompt]')).toBeVisible();

  await signInAsDemo(page);
  // Whether <html> already says "signed in" when the body opens, before any module script has run.
  await page.addInitScript(() => {
    new MutationObserver((_, observer) => {
      if (!document.body) return;
      (window as unknown as { signedInAtBody: boolean }).signedInAtBody = document.documentElement.classList.contains('signed-in');
      observer.disconnect();
    }).observe(document, { childList: true, subtree: true });
  });
  for (const path of ['/en/raffle', '/en/recharge/steam', '/en/activate/cdkey', '/en/customer/service']) {
    await page.goto(path);
    expect(await page.evaluate(() => (window as unknown as { signedInAtBody: boolean }).signedInAtBody), path).toBe(true);
    await expect(page.locator('[data-sign-in-prompt]'), path).toBeHidden();
    await expect(page.locator('[data-login-link]'), path).toBeHidden();
  }
});

/** A page's UI string, as the test reads the same dictionary the site is built from. */

test('edit profile: an avatar chosen with the image button shows at once, and a nickname is checked rule by rule, its message gone once fixed (ja)', async ({
  page,
}) => {
  await signInFresh(page);
  await page.goto('/ja/account/center/edit');
  const image = await sharp({ create: { width: 400, height: 300, channels: 3, background: '#2f7d4a' } })
    .png()
    .toBuffer();
  // A button of the design system (so a keyboard reaches and presses it) opens the file picker; the chosen file's name shows beside it.
  const choose = page.getByRole('button', { name: say('ja', 'account.edit.chooseImage') });
  const [chooser] = await Promise.all([page.waitForEvent('filechooser'), choose.click()]);
  await chooser.setFiles({ name: 'me.png', mimeType: 'image/png', buffer: image });
  await expect(page.locator('[data-file-name]')).toHaveText('me.png');
  await expect(page.getByText(say('ja', 'account.edit.avatarSaved'))).toBeVisible();
  await expect(page.locator('img[data-avatar]')).toHaveAttribute('src', /^\/api\/avatars\/[0-9a-f]+-256\.webp$/);
  await expect.poll(() => page.locator('img[data-avatar]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(256);

  const nickname = page.locator('input[name=nickname]');
  await nickname.fill('A');
  await page.getByRole('button', { name: say('ja', 'account.edit.save') }).click();
  await expect(page.getByRole('alert')).toHaveText('ニックネームは2～20文字で入力してください。');
  await expect(nickname).toHaveAttribute('aria-invalid', 'true');
  // Still too short: the message stays; fixed: it goes, before the name is saved again.
  await nickname.fill('');
  await expect(page.getByRole('alert')).toBeVisible();
  await nickname.fill('星の旅人');
  await expect(page.getByRole('alert')).toHaveCount(0);
  await expect(nickname).not.toHaveAttribute('aria-invalid');
  await page.getByRole('button', { name: say('ja', 'account.edit.save') }).click();
  await expect(page.getByText(say('ja', 'account.edit.nicknameSaved'))).toBeVisible();
  await page.goto('/ja/account/center/info');
  await expect(page.locator('[data-nickname]')).toHaveText('星の旅人');
});

test('raffle messages are on until turned off on the edit-profile page, and stay off (ru)', async ({ page }) => {
  const { auth } = await signInFresh(page);
  await page.goto('/ru/account/center/edit');
  const box = page.getByRole('checkbox', { name: say('ru', 'account.edit.raffleMessages') });
  await expect(box).toBeChecked();
  await expect(box).toBeEnabled();
  await expect(page.getByText(say('ru', 'account.edit.raffleMessagesHint'))).toBeVisible();
  await box.uncheck();
  await expect(page.getByText(say('ru', 'account.edit.messagesSaved'))).toBeVisible();
  await page.reload();
  await expect(box).toBeEnabled();
  await expect(box).not.toBeChecked();
  expect(await sealedCall(page, accountCalls.messageChoices, {}, auth.AccessToken)).toEqual({ RaffleMessages: false });
  await page.setViewportSize({ width: 320, height: 720 });
  await fitsInBothThemes(page);
});

test('linked accounts: the phone changes with a code to the old number and one to the new, read from the outbox; the other device is signed out and the old number told (ru)', async ({
  page,
}) => {
  const { phone, auth } = await signInFresh(page);
  const other = await secondDevice(page, auth);
  await page.goto('/ru/account/center/bind');
  await expect(page.locator('[data-current-phone]')).toHaveText(masked(phone));
  const sendFor = (name: string) => page.locator(`label:has(input[name=${name}]) button`);

  await expect(sendFor('oldCode')).toHaveText(say('ru', 'account.code.sendTo', { contact: masked(phone) }));
  await page.locator('input[name=oldCode]').fill(await codeSentBy(page, phone, () => sendFor('oldCode').click()));
  await expect(page.getByRole('status')).toHaveText(say('ru', 'account.code.sent', { contact: masked(phone) }));
  const next = newPhone();
  await page.locator('input[name=phone]').fill(next);
  await page.locator('input[name=code]').fill(await codeSentBy(page, next, () => sendFor('code').click()));
  await page.getByRole('button', { name: say('ru', 'account.bind.changePhone') }).click();
  await expect(page.getByRole('status')).toHaveText(say('ru', 'account.bind.phoneSaved', { count: '1' }));
  await expect(page.locator('[data-current-phone]')).toHaveText(masked(next));
  expect(await stillSignedIn(page, other)).toBe(false);
  expect(await stillSignedIn(page, auth.AccessToken)).toBe(true);
  expect((await outbox(page, phone)).at(-1)).toContain('номер телефона вашего аккаунта был изменён');
});

/** Asks for a link to `email` on the linked-accounts page, proving the change with the code sent to the phone, and gives the link the outbox received. */
async function bindEmail(page: Page, phone: string, email: string): Promise<string> {
  await page.goto('/en/account/center/bind');
  await page.locator('input[name=email]').fill(email);
  const send = page.locator('label:has(input[name=emailCode]) button');
  await expect(send).toHaveText(say('en', 'account.code.sendTo', { contact: masked(phone) }));
  await page.locator('input[name=emailCode]').fill(await codeSentBy(page, phone, () => send.click()));
  await page.getByRole('button', { name: say('en', 'account.bind.sendLink') }).click();
  await expect(page).toHaveURL(/\/en\/account\/center\/safe\/confirmemail$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(say('en', 'email.sent.title'));
  return /https?:\/\/\S+/.exec((await outbox(page, email)).at(-1)!)![0];
}

test('an e-mail address is bound through the link in the outbox once the phone’s code proves it; opening it signs the other device out; a used link says so (en)', async ({
  page,
}) => {
  const { phone, auth } = await signInFresh(page);
  const other = await secondDevice(page, auth);
  const email = `e2e-${Date.now()}@example.com`;
  const link = await bindEmail(page, phone, email);
  await page.goto(link);
  await expect(page).toHaveURL(/status=confirmed&signedOut=1/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(say('en', 'email.done.title'));
  await expect(page.getByText(say('en', 'email.done.signedOut', { count: '1' }))).toBeVisible();
  expect(await stillSignedIn(page, other)).toBe(false);
  await page.goto('/en/account/center/bind');
  await expect(page.locator('[data-current-email]')).toHaveText(email);
  expect((await outbox(page, phone)).at(-1)).toContain('The e-mail address of your account was changed');

  await page.goto(link);
  await expect(page.getByText(say('en', 'email.failed.used'))).toBeVisible();
});

test('an expired e-mail link says so (en)', async ({ page }) => {
  const { phone } = await signInFresh(page);
  const late = `e2e-late-${Date.now()}@example.com`;
  const lateLink = await bindEmail(page, phone, late);
  expect((await page.request.post(`/api${dev.expireEmailLinks.path}`, { data: { to: late } })).ok()).toBe(true);
  await page.goto(lateLink);
  await expect(page.getByText(say('en', 'email.failed.expired'))).toBeVisible();
});

test('a first password is set with the code sent to the phone; the other device is signed out, and the page says how many (ja)', async ({ page }) => {
  const { phone, auth } = await signInFresh(page);
  const other = await secondDevice(page, auth);
  await page.goto('/ja/account/center/safe');
  await page.locator('input[name=next]').fill('e2e first password');
  await page.locator('input[name=repeat]').fill('e2e first password');
  const send = page.locator('label:has(input[name=passwordCode]) button');
  await expect(send).toHaveText(say('ja', 'account.code.sendTo', { contact: masked(phone) }));
  await page.locator('input[name=passwordCode]').fill(await codeSentBy(page, phone, () => send.click()));
  await page.getByRole('button', { name: say('ja', 'account.safe.setPassword') }).click();
  await expect(page.getByText(say('ja', 'account.safe.passwordSaved', { count: '1' }))).toBeVisible();
  expect(await stillSignedIn(page, other)).toBe(false);
  await expect(page.locator('[data-session]')).toHaveCount(1);
  expect((await outbox(page, phone)).at(-1)).toMatch(/^【Beacon Toolkit】.+パスワードが設定され/);
});

test('signing out another device from the security page sends that device to login on its next call (zh-CN)', async ({ browser }) => {
  const first = await browser.newPage();
  const { phone, auth } = await signInFresh(first);
  await sealedCall(first, accountCalls.sendOwnCode, { Channel: 'sms' }, auth.AccessToken);
  await sealedCall(first, accountCalls.setPassword, { Password: 'e2e password 1', Code: await lastCode(first, phone) }, auth.AccessToken);
  const second = await browser.newPage();
  const result = await sealedCall(second, identity.loginByPassword, { Account: phone, Password: 'e2e password 1', DeviceId: 'e2e-device-0003' });
  await keep(second, result);
  await second.goto('/account/center/edit');
  await expect(second.locator('input[name=nickname]')).toBeVisible();

  await first.goto('/account/center/safe');
  const others = first.locator('[data-session=other]');
  await expect(others).toHaveCount(1);
  await expect(first.locator('[data-history] li').first()).toContainText(say('zh-CN', 'account.safe.method.password'));
  await others.getByRole('button', { name: say('zh-CN', 'account.safe.signOut') }).click();
  await expect(others).toHaveCount(0);

  await second.locator('input[name=nickname]').fill('另一台设备');
  await second.getByRole('button', { name: say('zh-CN', 'account.edit.save') }).click();
  await expect(second).toHaveURL(/\/account\/login\?redirectUrl=%2Faccount%2Fcenter%2Fedit/);
  await expect(second.getByText(say('zh-CN', 'messages.loginExpired'))).toBeVisible();
  await first.close();
  await second.close();
});

test('on a phone, the deletion confirmation states what would be lost, with the figures (ru)', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { auth } = await signInFresh(page);
  const [key] = await newCdkeys(`e2e-loss-${Date.now()}`, 'wallet:1234', 1);
  await sealedCall(page, activationCalls.redeem, { Key: key }, auth.AccessToken);
  await page.goto('/ru/account/center/safe');
  const losses = page.locator('[data-deletion-losses]');
  await expect(losses).toContainText(say('ru', 'account.safe.deleteLoses'));
  await expect(losses.getByRole('listitem')).toHaveText([say('ru', 'account.safe.lossWallet', { amount: formatPrice(1234, 'ru') })]);
  await expect(page.getByText(say('ru', 'account.safe.deleteOrdersKept'))).toBeVisible();
  expect(await overflowOf(page)).toEqual({ page: 0, elements: [] });
});

test('a deleted account is gone at once, and its phone registers afresh (en)', async ({ page }) => {
  const { phone, userId } = await signInFresh(page);
  await page.goto('/en/account/center/safe');
  const danger = page.locator('.danger-zone');
  // The box sits beside its sentence, as every checkbox does, not on a row of its own above it.
  const box = (await danger.getByRole('checkbox').boundingBox())!;
  const sentence = (await danger.locator('.agree span').boundingBox())!;
  expect(box.x + box.width).toBeLessThanOrEqual(sentence.x);
  expect(box.y).toBeLessThan(sentence.y + sentence.height / 2);
  const code = await codeSentBy(page, phone, () => danger.getByRole('button', { name: say('en', 'account.code.sendTo', { contact: masked(phone) }) }).click());
  await danger.locator('input[name=code]').fill(code);
  await danger.getByRole('checkbox').check();
  await danger.getByRole('button', { name: say('en', 'account.safe.deleteButton') }).click();
  await expect(page).toHaveURL(/\/en\/account\/login/);
  await expect(page.getByText(say('en', 'session.accountDeleted'))).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('beacon.auth'))).toBeNull();

  // The same number, through the login page: a new account.
  await page.getByRole('checkbox').check();
  await page.locator('input[name=phone]').fill(phone);
  await page.locator('input[name=code]').fill(await codeSentBy(page, phone, () => page.getByRole('button', { name: say('en', 'login.sendCode') }).click()));
  await page.getByRole('button', { name: say('en', 'login.submit') }).click();
  await expect(page).toHaveURL(/\/en\/account\/center\/info/);
  const user = await page.evaluate(() => JSON.parse(localStorage.getItem('beacon.user')!) as { Id: number });
  expect(user.Id).not.toBe(userId);
});
