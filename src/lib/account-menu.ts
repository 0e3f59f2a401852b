import type { UiKey } from '@/i18n/strings.ts';

/** The account centre's pages, in menu order, with their UI string keys. */
export interface AccountMenuItem {
  path: string;
  key: UiKey;
  children?: AccountMenuItem[];
}

export const accountMenu: AccountMenuItem[] = [
  { path: '/account/center/info', key: 'account.menu.info' },
  { path: '/account/center/edit', key: 'account.menu.edit' },
  { path: '/account/center/bind', key: 'account.menu.bind' },
  { path: '/account/center/safe', key: 'account.menu.safe' },
  { path: '/account/center/wallet', key: 'account.menu.wallet' },
  { path: '/account/center/order', key: 'account.menu.order' },
  { path: '/account/center/redemption', key: 'account.menu.redemption', children: [{ path: '/account/center/redemption/donate', key: 'account.menu.donate' }] },
  { path: '/account/center/agreements', key: 'account.menu.agreements' },
  { path: '/account/center/game', key: 'account.menu.game' },
  {
    path: '/account/center/steam',
    key: 'account.menu.steam',
    children: [
      { path: '/account/center/steam/point', key: 'account.menu.point' },
      { path: '/account/center/steam/account', key: 'account.menu.steamAccount' },
      { path: '/account/center/steam/cloudidea', key: 'account.menu.cloudidea' },
    ],
  },
];
