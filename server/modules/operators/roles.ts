/**
 * Operators' roles (contract/admin.ts `operatorRoles`): granting, revoking and
 * listing them, each change with its line in the audit log in the same
 * transaction, so no role changes unrecorded.
 */
import { and, desc, eq, gt } from 'drizzle-orm';
import type { OperatorEntry, OperatorRole } from '#contract/admin.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { users } from '../../db/schema/identity.ts';
import { consoleFactors, operatorRoleGrants } from '../../db/schema/operators.ts';

export interface RoleChange {
  previous: OperatorRole | null;
  role: OperatorRole | null;
}

/** Sets the user's role (the one before is replaced); an unchanged role writes nothing. */
export async function grantRole(db: Database, actor: Actor, userId: number, role: OperatorRole): Promise<RoleChange> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(operatorRoleGrants).where(eq(operatorRoleGrants.userId, userId)).for('update');
    const previous = current?.role ?? null;
    if (previous === role) return { previous, role };
    await tx
      .insert(operatorRoleGrants)
      .values({ userId, role })
      .onConflictDoUpdate({ target: operatorRoleGrants.userId, set: { role, grantedAt: new Date() } });
    await recordAudit(tx, actor, { action: 'role grant', target: `user ${userId}`, before: { role: previous }, after: { role } });
    return { previous, role };
  });
}

/** Takes the user's role away; a user without one writes nothing. */
export async function revokeRole(db: Database, actor: Actor, userId: number): Promise<RoleChange> {
  return db.transaction(async (tx) => {
    const [removed] = await tx.delete(operatorRoleGrants).where(eq(operatorRoleGrants.userId, userId)).returning();
    if (removed) await recordAudit(tx, actor, { action: 'role revoke', target: `user ${userId}`, before: { role: removed.role }, after: { role: null } });
    return { previous: removed?.role ?? null, role: null };
  });
}

/** Everyone with a role, most recently granted first, and until when wrong console codes have locked their sign-in. */
export async function listOperators(db: Database, now = new Date()): Promise<OperatorEntry[]> {
  const rows = await db
    .select({
      userId: users.id,
      phone: users.phone,
      email: users.email,
      nickname: users.nickname,
      role: operatorRoleGrants.role,
      grantedAt: operatorRoleGrants.grantedAt,
      lockedUntil: consoleFactors.lockedUntil,
    })
    .from(operatorRoleGrants)
    .innerJoin(users, eq(users.id, operatorRoleGrants.userId))
    .leftJoin(consoleFactors, and(eq(consoleFactors.userId, operatorRoleGrants.userId), gt(consoleFactors.lockedUntil, now)))
    .orderBy(desc(operatorRoleGrants.grantedAt));
  return rows.map((row) => ({ ...row, grantedAt: row.grantedAt.toISOString(), lockedUntil: row.lockedUntil?.toISOString() ?? null }));
}
