/**
 * The console's audit area, for admins: the audit log sorted, found by action,
 * record, actor and days, a page at a time (`audit list`), all of it
 * as CSV (`audit export`); and who has which role (`role list|grant|revoke`,
 * `role reset-factor` for a lost phone, `role unlock` for a sign-in wrong
 * codes locked).
 */
import { atom } from 'nanostores';
import type { OperatorEntry, OperatorRole } from '#contract/admin.ts';
import { auditActions, auditRecordKinds, auditWholeRecords, isAuditAction, readAuditTarget, type AuditAction } from '#contract/audit.ts';
import type { ResultOf } from '#contract/command.ts';
import { auditSorts, roleAndAuditCommands } from '#contract/commands/operators.ts';
import { listSize } from '#contract/list.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';
import type { ListStart, ListState } from './list-url.ts';

/**
 * What the log is searched for: an action (`role grant`, '' for any), a record: its kind as the log names it
 * (`user`, `server keys`, '' for any) and, for a kind named with one, its id; words of who did it, and days (both included).
 */
export type AuditSearch = {
  action: AuditAction | '';
  kind: string;
  id: string;
  actor: string;
  since: string;
  until: string;
};
export type AuditSort = (typeof auditSorts)[number];

/** The log as it opens: every line, newest first; the page's URL says otherwise (list-url.ts). */
export const auditList: ListStart<AuditSort, AuditSearch> = {
  columns: auditSorts,
  start: { query: { sort: 'at', dir: 'desc', page: 1, size: listSize.default }, filter: { action: '', kind: '', id: '', actor: '', since: '', until: '' } },
};

/** The actions to search by, in the order of the contract's list. */
export const searchableActions = Object.keys(auditActions) as AuditAction[];
/** The kinds of record to search by: those named with an id, then those one of a kind. */
export const searchableKinds = [...Object.keys(auditRecordKinds), ...Object.keys(auditWholeRecords)];
/** A kind of record that is one of a kind: it is searched without an id. */
export const isWholeRecord = (kind: string) => Object.hasOwn(auditWholeRecords, kind);

/** The record the search names as the log names it (`user 12`, `payments`), or undefined for any record. */
export function searchedTarget({ kind, id }: Pick<AuditSearch, 'kind' | 'id'>): string | undefined {
  if (isWholeRecord(kind)) return kind;
  return kind && id.trim() ? `${kind} ${id.trim()}` : undefined;
}

/** The words of an action in the console's dictionary; null for an action of no known kind (an older log's), shown as it is. */
export const actionWords = (action: string) => (isAuditAction(action) ? (`console.audit.action.${auditActions[action]}` as const) : null);

/** The words of a record kind as the log names it (`user`, `server keys`). */
export function kindWords(kind: string) {
  const read = readAuditTarget(isWholeRecord(kind) ? kind : `${kind} -`);
  return read ? (`console.audit.kind.${read.words}` as const) : null;
}

/** A record's words: the key of its kind and its id as it is (null for a record one of a kind); null for a record of no known kind, shown as it is. */
export function recordWords(target: string) {
  const read = readAuditTarget(target);
  return read && { kind: `console.audit.kind.${read.words}` as const, id: read.id };
}

export type AuditPage = Omit<ResultOf<typeof roleAndAuditCommands.auditList>, 'command'>;

export function createAudit(run: RunCommand) {
  const $entries = atom<AuditPage | null>(null);
  const $operators = atom<OperatorEntry[] | null>(null);
  const logAction = createAction();
  const roleAction = createAction<'console.audit.roleChanged' | 'console.audit.factorReset' | 'console.audit.unlocked' | 'console.audit.noSuchUser'>();

  /** A page of the lines the search finds; what the form leaves empty (or an action of no known kind, typed into the URL) is no condition. */
  async function find({ query, filter }: ListState<AuditSort, AuditSearch>): Promise<void> {
    const args = {
      ...query,
      action: filter.action && isAuditAction(filter.action) ? filter.action : undefined,
      target: searchedTarget(filter),
      actor: filter.actor.trim() || undefined,
      since: filter.since || undefined,
      until: filter.until || undefined,
    };
    await logAction.run(async () => {
      const { rows, total, page, size } = await run(roleAndAuditCommands.auditList, args);
      $entries.set({ rows, total, page, size });
    });
  }

  /** The whole log as CSV, for the page to hand to the browser as a file. */
  const exportCsv = async (): Promise<string | undefined> => logAction.run(async () => (await run(roleAndAuditCommands.auditExport, {})).csv);

  async function loadOperators(): Promise<void> {
    await roleAction.run(async () => $operators.set((await run(roleAndAuditCommands.list, {})).operators));
  }

  /** Gives a user a role, or takes it away (null), then lists everyone with a role again. */
  async function setRole(user: string, role: OperatorRole | null): Promise<void> {
    await roleAction.run(async () => {
      const changed = await (role ? run(roleAndAuditCommands.grant, { user: user.trim(), role }) : run(roleAndAuditCommands.revoke, { user: user.trim() }));
      if (changed.userId === null) return roleAction.refuse('console.audit.noSuchUser', { user: user.trim() });
      $operators.set((await run(roleAndAuditCommands.list, {})).operators);
      roleAction.say('ok', 'console.audit.roleChanged');
    });
  }

  async function resetFactor(userId: number): Promise<void> {
    await roleAction.run(async () => {
      await run(roleAndAuditCommands.resetFactor, { user: String(userId) });
    }, 'console.audit.factorReset');
  }

  /** Lifts the lock wrong codes put on a user's console sign-in, then lists everyone with a role again. */
  async function unlock(userId: number): Promise<void> {
    await roleAction.run(async () => {
      await run(roleAndAuditCommands.unlock, { user: String(userId) });
      $operators.set((await run(roleAndAuditCommands.list, {})).operators);
    }, 'console.audit.unlocked');
  }

  return {
    $entries,
    $operators,
    log: { $busy: logAction.$busy, $notice: logAction.$notice },
    roles: { $busy: roleAction.$busy, $notice: roleAction.$notice },
    find,
    exportCsv,
    loadOperators,
    setRole,
    resetFactor,
    unlock,
  };
}
