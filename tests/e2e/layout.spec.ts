import { expect, test } from '@playwright/test';
import { overflowOf } from './overflow.ts';
import { settled } from './page-checks.ts';
import { localizePath, locales, routes } from './routes.ts';
import { signInAsDemo } from './session.ts';

/** The narrowest phones in use, and the common one. */
const widths = [320, 390];

// Every route in every locale, as a visitor and as a customer: nothing may stick out sideways.
for (const locale of locales) {
  for (const signedIn of [false, true]) {
    test(`no route overflows a phone in ${locale.code}${signedIn ? ', logged in' : ''}`, async ({ page }) => {
      test.slow();
      if (signedIn) await signInAsDemo(page);
      const problems: string[] = [];
      // Logged out, the account centre is the login page, which is a route of its own.
      for (const route of routes.filter((route) => signedIn || !route.login)) {
        const url = localizePath(locale.code, route.path);
        await page.setViewportSize({ width: widths[widths.length - 1], height: 800 });
        await page.goto(url);
        await settled(page);
        // The logged-in header fills in after load: it is measured with the customer's badge, which must come.
        if (signedIn && route.chrome !== false) await expect(page.locator('[data-session-badge]'), url).toBeVisible();
        for (const width of widths.toReversed()) {
          await page.setViewportSize({ width, height: 800 });
          const overflow = await overflowOf(page);
          if (overflow.page > 0 || overflow.elements.length) problems.push(`${url} @${width}px: page +${overflow.page}px; ${overflow.elements.join(', ')}`);
        }
      }
      expect(problems).toEqual([]);
    });
  }
}
