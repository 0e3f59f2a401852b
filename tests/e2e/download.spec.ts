import { expect, test } from '@playwright/test';
import { userAgents } from '../user-agents.ts';

for (const agent of userAgents) {
  test.describe(agent.label, () => {
    test.use({ userAgent: agent.ua, hasTouch: agent.maxTouchPoints > 0 });

    test(`offers ${agent.expected} first`, async ({ page }) => {
      // Only Chromium has User-Agent Client Hints; the other browsers these agents name do not.
      if (!agent.ua.includes('Chrome/')) {
        await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'userAgentData', { get: () => undefined }));
      }
      await page.addInitScript((points) => Object.defineProperty(Navigator.prototype, 'maxTouchPoints', { get: () => points }), agent.maxTouchPoints);
      await page.goto('/en/download');
      const recommended = page.locator('[data-recommended]');
      await expect(recommended).toBeVisible();
      await expect(recommended.locator('[data-package-id]')).toHaveAttribute('data-package-id', agent.expected);
      await expect(page.locator('[data-download-page]')).toHaveAttribute('data-detected', `${agent.name}/${agent.cpu}`);
      // The detected platform's list is the tab in view; every other platform is one click away.
      await expect(page.locator(`[data-platform-tab="${agent.name}"]`)).toHaveAttribute('aria-selected', 'true');
      await page.locator('[data-platform-tab="linux"]').click();
      await expect(page.locator('[data-platform-panel="linux"]')).toBeVisible();
      await expect(page.locator(`[data-platform-panel="${agent.name === 'linux' ? 'mac' : agent.name}"]`)).toBeHidden();
    });
  });
}

test.describe('package details', () => {
  test.use({ userAgent: userAgents[3].ua });

  test('the recommended package shows version, size, SHA-256 and a copyable verify command', async ({ page, context }) => {
    await context.grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.goto('/en/download');
    const card = page.locator('[data-recommended] [data-package-id]');
    await expect(card).toContainText('3.0.1119.0');
    await expect(card).toContainText(/\d+(\.\d)? MB/);
    // The checksum and verify command sit behind a disclosure, one click away.
    await card.locator('details.checksum summary').click();
    const sha = await card.locator('[data-sha256]').textContent();
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    await expect(card.locator('code')).toContainText(`sha256sum -c -`);
    await card.locator('[data-copy]').click();
    await expect(card.locator('[data-copy]')).toHaveText('Copied');
    expect(await page.evaluate(() => navigator.clipboard.readText())).toContain(sha!);
  });

  test('a disabled mirror shows as disabled, without a link', async ({ page }) => {
    await page.goto('/en/download');
    const gitee = page.locator('[data-mirror="Gitee"]');
    await expect(gitee).toHaveAttribute('data-disabled', 'true');
    await expect(gitee).toContainText('Temporarily unavailable');
    await expect(gitee.getByRole('link', { name: 'Releases' })).toHaveCount(0);
    await expect(page.locator('[data-mirror="GitHub"]').getByRole('link', { name: 'Releases' })).toBeVisible();
  });
});
