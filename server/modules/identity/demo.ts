/** The demo account of a fresh embedded database, so a newcomer can try password login and unbinding at once. */
import { count } from 'drizzle-orm';
import type { Database } from '../../db/database.ts';
import { externalAccounts, users } from '../../db/schema/identity.ts';
import { demoAccount } from '../../services/demo-account.ts';
import { hashPassword } from './passwords.ts';

/** Seeds the demo account into an empty database; false when there were users already. */
export async function seedDemoAccount(db: Database): Promise<boolean> {
  const [{ existing }] = await db.select({ existing: count() }).from(users);
  if (existing > 0) return false;
  const passwordHash = await hashPassword(demoAccount.password);
  await db.transaction(async (tx) => {
    const [user] = await tx.insert(users).values({ phone: demoAccount.phone, nickname: 'Beacon Demo', passwordHash }).returning({ id: users.id });
    await tx.insert(externalAccounts).values({ userId: user.id, provider: 'steam', subject: '76561198000000000', displayName: 'BeaconDemo' });
  });
  return true;
}
