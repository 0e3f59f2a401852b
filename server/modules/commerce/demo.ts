/**
 * The demo account's purchases on a fresh embedded database: some wallet
 * credit, a cloud-idling month paid from it, and a Steam recharge waiting to
 * be paid — so the wallet, order and pay pages show real data at once.
 */
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/identity.ts';
import { demoAccount } from '../../services/demo-account.ts';
import { priceOrder } from './catalogue.ts';
import { insertOrder } from './orders.ts';
import { payFromWallet } from './payments.ts';
import { changeBalance } from './wallet.ts';

/** False when there is no demo account to give them to. */
export async function seedDemoOrders(db: Database): Promise<boolean> {
  const [user] = await db.select({ id: users.id }).from(users).where(eq(users.phone, demoAccount.phone));
  if (!user) return false;
  await db.transaction((tx) => changeBalance(tx, user.id, 10_000, 'credit', null));
  const month = await priceOrder(db, user.id, { Product: 'cloud-idle-monthly' });
  const paid = await insertOrder(db, { userId: user.id, product: 'cloud-idle-monthly', ...month });
  await payFromWallet(db, user.id, paid.key);
  const recharge = await priceOrder(db, user.id, { Product: 'steam-cn', Amount: 5_000 });
  await insertOrder(db, { userId: user.id, product: 'steam-cn', ...recharge });
  return true;
}
