/**
 * The console's areas, in the order its menu lists them: each is a page under
 * /admin, open from the role that may use it (the server checks every call
 * again; the menu only spares an operator pages they cannot use).
 */
import type { OperatorRole } from '#contract/admin.ts';

export const consoleAreas = [
  { path: '/admin', key: 'console.nav.home', role: 'support' },
  { path: '/admin/customers', key: 'console.nav.customers', role: 'support' },
  { path: '/admin/orders', key: 'console.nav.orders', role: 'support' },
  { path: '/admin/invoices', key: 'console.nav.invoices', role: 'support' },
  { path: '/admin/cdkeys', key: 'console.nav.cdkeys', role: 'operator' },
  { path: '/admin/raffles', key: 'console.nav.raffles', role: 'operator' },
  { path: '/admin/reviews', key: 'console.nav.reviews', role: 'operator' },
  { path: '/admin/status', key: 'console.nav.status', role: 'operator' },
  { path: '/admin/audit', key: 'console.nav.audit', role: 'admin' },
] as const satisfies ReadonlyArray<{ path: string; key: string; role: OperatorRole }>;
