import { expect, test } from '@playwright/test';
import { signInAsDemo } from './session.ts';

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
  await page.goto('/en/raffle');
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
