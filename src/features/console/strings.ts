/** The strings every console island is given: the console's own and the order, wallet and login words it shares with the account centre. */
import type { LocaleCode } from '@/i18n/locales.ts';
import { stringsFor } from '@/i18n/t.ts';
import { failureMessageKeys } from '@/lib/api/errors.ts';
import { formMessageKeys } from '@/lib/form-messages.ts';

export const consoleStrings = (locale: LocaleCode) =>
  stringsFor(locale, [
    'console',
    'account.order',
    'account.orderDetail',
    'account.wallet.reason',
    'account.redemption.grant',
    'account.agreements',
    'account.safe.method',
    'pay.method',
    'plugin.reason',
    'status.state',
    'status.title',
    'status.incidents',
    'status.change',
    ...failureMessageKeys,
    ...formMessageKeys,
    'common',
  ]);

export type ConsoleStrings = ReturnType<typeof consoleStrings>;
