/** `audit list`: a page of the audit log, sorted and filtered, and how many lines pass the filter. */
import { and, asc, count, desc, eq, gte, lt, sql, type SQL } from 'drizzle-orm';
import type { AuditEntry } from '#contract/admin.ts';
import type { ParsedArgsOf } from '#contract/command.ts';
import type { roleAndAuditCommands } from '#contract/commands/operators.ts';
import { offsetOf } from '#contract/list.ts';
import type { Database } from '../../db/database.ts';
import { startingWith } from '../../db/like.ts';
import { auditLog } from '../../db/schema/operators.ts';

/** What `audit list` sorts by → the column; ids follow time, and break ties. */
const sortColumns = { at: auditLog.id, action: auditLog.action, actor: auditLog.actor } as const;

export async function auditPage(
  db: Database,
  { sort, dir, page, size, action, target, actor, since, until }: ParsedArgsOf<typeof roleAndAuditCommands.auditList>,
): Promise<{ rows: AuditEntry[]; total: number }> {
  const conditions: SQL[] = [];
  if (action) conditions.push(eq(auditLog.action, action));
  if (target) conditions.push(eq(auditLog.target, target));
  // Who did it, by the start of their name in any case, through audit_log_actor_start (schema).
  if (actor) conditions.push(sql`lower(${auditLog.actor}) like ${startingWith(actor)}`);
  if (since) conditions.push(gte(auditLog.at, new Date(since)));
  if (until) conditions.push(lt(auditLog.at, new Date(Date.parse(until) + 86_400_000)));
  const where = conditions.length ? and(...conditions) : undefined;
  const order = dir === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    db.select().from(auditLog).where(where).orderBy(order(sortColumns[sort]), order(auditLog.id)).limit(size).offset(offsetOf({ page, size })),
    db.select({ total: count() }).from(auditLog).where(where),
  ]);
  return { rows: rows.map((row) => ({ ...row, at: row.at.toISOString() })), total };
}
