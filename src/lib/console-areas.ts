/** The console's areas, in the order its menu lists them: each is a page under /admin. */
export const consoleAreas = [
  { path: '/admin', key: 'console.nav.home' },
  { path: '/admin/customers', key: 'console.nav.customers' },
  { path: '/admin/orders', key: 'console.nav.orders' },
] as const;
