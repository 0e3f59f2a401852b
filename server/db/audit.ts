/**
 * The audit log (table `audit_log`, append-only by a trigger): one line per
 * operator's action — who, when, from where, what, on which record, and the
 * record before and after. Writing a line belongs in the same transaction as
 * the change it records, so neither exists without the other. Read by admins
 * (`npm run admin -- audit list|export`).
 */
import { desc } from 'drizzle-orm';
import type { AuditEntry, OperatorRole } from '#contract/admin.ts';
import type { AuditAction, AuditTarget } from '#contract/audit.ts';
import type { Database, Transaction } from './database.ts';
import { auditLog } from './schema/operators.ts';

/** Who acts: a console user, or an operator at the server's shell. */
export interface Actor {
  label: string;
  userId: number | null;
  address: string | null;
  /** The console user's role, which bounds what they may do (a support user's refunds); null at the shell, where the server's own machine answers for it. */
  role: OperatorRole | null;
}

/** An operator at the server's shell (`npm run admin`), named as the CLI's process runs: `user@host`. */
export const shellActor = (who: string, address: string | null): Actor => ({ label: `${who} (operators' command)`, userId: null, address, role: null });

/** The server itself, doing what an operator would (the demo data it seeds). */
export const serverActor = (what: string): Actor => ({ label: `${what} (the server)`, userId: null, address: null, role: null });

/** A console user, by nickname, id and role. */
export const consoleActor = (user: { userId: number; nickname: string; role: OperatorRole }, address: string | null): Actor => ({
  label: `${user.nickname} (user ${user.userId}, ${user.role})`,
  userId: user.userId,
  address,
  role: user.role,
});

/** A line: its action and record from the list of contract/audit.ts, which the console has words for in every language. */
export interface AuditLine {
  action: AuditAction;
  target: AuditTarget | null;
  before: unknown;
  after: unknown;
}

export async function recordAudit(db: Database | Transaction, actor: Actor, line: AuditLine): Promise<void> {
  await db.insert(auditLog).values({
    actor: actor.label,
    actorUserId: actor.userId,
    address: actor.address,
    action: line.action,
    target: line.target,
    before: line.before ?? null,
    after: line.after ?? null,
  });
}

/** The newest lines first, at most `limit` (the console's list pages through them: server/modules/operators/audit-list.ts). */
export async function auditEntries(db: Database, limit: number): Promise<AuditEntry[]> {
  const rows = await db.select().from(auditLog).orderBy(desc(auditLog.id)).limit(limit);
  return rows.map((row) => ({ ...row, at: row.at.toISOString() }));
}

/**
 * A CSV field: JSON for a record; a leading quote mark before text a
 * spreadsheet would run as a formula (a nickname "=HYPERLINK(…)"); quoted when
 * it holds a comma, a quote or a line break (RFC 4180's quoting; lines end in
 * \n, which every spreadsheet reads, as the API's text allows no \r).
 */
function csvField(value: unknown): string {
  const raw = value === null || value === undefined ? '' : typeof value === 'string' || typeof value === 'number' ? String(value) : JSON.stringify(value);
  const text = /^[=+\-@]/.test(raw) ? `'${raw}` : raw;
  return /[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

/** Every line, oldest first, as CSV with a header row. */
export function auditCsv(entries: AuditEntry[]): string {
  const columns = ['id', 'at', 'actor', 'actorUserId', 'address', 'action', 'target', 'before', 'after'] as const;
  const rows = [...entries].sort((a, b) => a.id - b.id).map((entry) => columns.map((column) => csvField(entry[column])).join(','));
  return `${[columns.join(','), ...rows].join('\n')}\n`;
}
