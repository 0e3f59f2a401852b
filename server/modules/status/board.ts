/**
 * The acceleration status board: one row per region and service of
 * `statusTargets`, and an incident for every change an operator makes,
 * written in the same transaction.
 */
import { desc, eq, inArray } from 'drizzle-orm';
import {
  statusTargetKeys,
  type ServiceState,
  type ServiceStatus,
  type StatusChange,
  type StatusIncident,
  type StatusNote,
  type StatusTargetKey,
} from '#contract/status.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { serviceStatus, statusIncidents } from '../../db/schema/status.ts';

type StatusRow = typeof serviceStatus.$inferSelect;
type IncidentRow = typeof statusIncidents.$inferSelect;

const toStatus = (row: StatusRow): ServiceStatus => ({
  Key: row.key as StatusTargetKey,
  State: row.state,
  Since: row.since.toISOString(),
  Note: row.note,
  UpdatedAt: row.updatedAt.toISOString(),
});

const toIncident = (row: IncidentRow): StatusIncident => ({
  Id: row.id,
  Key: row.key as StatusTargetKey,
  State: row.state,
  Previous: row.previous,
  Note: row.note,
  At: row.at.toISOString(),
});

/** Every target has its row from the start, up since it first appeared. */
export async function ensureTargets(db: Database): Promise<void> {
  const now = new Date();
  await db
    .insert(serviceStatus)
    .values(statusTargetKeys.map((key) => ({ key, state: 'up' as const, since: now })))
    .onConflictDoNothing();
}

/** The services in board order (targets no longer listed are left out). */
export async function services(db: Database): Promise<ServiceStatus[]> {
  const rows = await db.select().from(serviceStatus).where(inArray(serviceStatus.key, statusTargetKeys));
  const byKey = new Map(rows.map((row) => [row.key, row]));
  return statusTargetKeys.flatMap((key) => {
    const row = byKey.get(key);
    return row ? [toStatus(row)] : [];
  });
}

export async function incidents(db: Database, limit: number): Promise<StatusIncident[]> {
  const rows = await db.select().from(statusIncidents).orderBy(desc(statusIncidents.at), desc(statusIncidents.id)).limit(limit);
  return rows.map(toIncident);
}

/**
 * Sets a target's state and note and records the change as an incident.
 * `Since` moves only when the state changes: a new note on an ongoing
 * incident keeps its start.
 */
export async function setStatus(db: Database, actor: Actor, key: StatusTargetKey, state: ServiceState, note: StatusNote | null): Promise<StatusChange> {
  return db.transaction(async (tx) => {
    const [current] = await tx.select().from(serviceStatus).where(eq(serviceStatus.key, key)).for('update');
    const now = new Date();
    const since = current && current.state === state ? current.since : now;
    const [row] = await tx
      .insert(serviceStatus)
      .values({ key, state, since, note, updatedAt: now })
      .onConflictDoUpdate({ target: serviceStatus.key, set: { state, since, note, updatedAt: now } })
      .returning();
    const [incident] = await tx
      .insert(statusIncidents)
      .values({ key, state, previous: current?.state ?? 'up', note, at: now })
      .returning();
    await recordAudit(tx, actor, {
      action: 'status set',
      target: `service ${key}`,
      before: current ? { state: current.state, note: current.note } : null,
      after: { state, note },
    });
    return { Service: toStatus(row), Incident: toIncident(incident) };
  });
}
