/**
 * The operators' commands about who runs the shop and what they did (contract/commands/operators.ts):
 * roles, second factors, and the audit log.
 */
import type { ResultOf } from '#contract/command.ts';
import { roleAndAuditCommands } from '#contract/commands/operators.ts';
import { commandsPlugin, handle } from '../../admin-command.ts';
import { noUser, orDash, pageLine, table, time } from '../../admin-text.ts';
import { auditCsv, auditEntries, recordAudit } from '../../db/audit.ts';
import { auditPage } from './audit-list.ts';
import { grantRole, listOperators, revokeRole } from './roles.ts';
import { resetSecondFactor, unlockSecondFactor } from './second-factor.ts';

/** All of it, for a spreadsheet; a log larger than this is exported in pages by id (`--before`, a later change). */
const exportLimit = 100_000;

const roleChange = (result: ResultOf<typeof roleAndAuditCommands.grant | typeof roleAndAuditCommands.revoke>) => {
  if (result.userId === null) return noUser(result.key);
  if (result.previous === result.role) return result.role ? `User ${result.userId} is already ${result.role}.` : `User ${result.userId} has no role.`;
  return `User ${result.userId}: ${result.previous ?? 'no role'} → ${result.role ?? 'no role'}.`;
};

/** The user a command names exists. */
const userFound = (result: { userId: number | null }) => result.userId !== null;

export default commandsPlugin('operators', [
  handle(roleAndAuditCommands.grant, {
    async run(app, { user: key, role }, { actor }) {
      const user = await app.findUser(key);
      if (!user) return { command: 'role grant', key, userId: null, previous: null, role: null };
      return { command: 'role grant', key, userId: user.id, ...(await grantRole(app.db, actor, user.id, role)) };
    },
    format: roleChange,
    found: userFound,
  }),
  handle(roleAndAuditCommands.revoke, {
    async run(app, { user: key }, { actor }) {
      const user = await app.findUser(key);
      if (!user) return { command: 'role revoke', key, userId: null, previous: null, role: null };
      return { command: 'role revoke', key, userId: user.id, ...(await revokeRole(app.db, actor, user.id)) };
    },
    format: roleChange,
    found: userFound,
  }),
  handle(roleAndAuditCommands.resetFactor, {
    async run(app, { user: key }, { actor }) {
      const user = await app.findUser(key);
      if (!user) return { command: 'role reset-factor', key, userId: null, reset: false };
      const reset = await app.db.transaction(async (tx) => {
        const had = await resetSecondFactor(tx, user.id);
        if (had)
          await recordAudit(tx, actor, {
            action: 'role reset-factor',
            target: `user ${user.id}`,
            before: { authenticator: true },
            after: { authenticator: false },
          });
        return had;
      });
      return { command: 'role reset-factor', key, userId: user.id, reset };
    },
    format: (result) =>
      result.userId === null
        ? noUser(result.key)
        : result.reset
          ? `User ${result.userId} sets up a new authenticator at their next console sign-in.`
          : `User ${result.userId} had no authenticator.`,
    found: userFound,
  }),
  handle(roleAndAuditCommands.unlock, {
    async run(app, { user: key }, { actor }) {
      const user = await app.findUser(key);
      if (!user) return { command: 'role unlock', key, userId: null, unlocked: false };
      const unlocked = await app.db.transaction(async (tx) => {
        const before = await unlockSecondFactor(tx, user.id);
        if (before) await recordAudit(tx, actor, { action: 'role unlock', target: `user ${user.id}`, before, after: { failedTries: 0, lockedUntil: null } });
        return before !== null;
      });
      return { command: 'role unlock', key, userId: user.id, unlocked };
    },
    format: (result) =>
      result.userId === null
        ? noUser(result.key)
        : result.unlocked
          ? `User ${result.userId} may sign in to the console again.`
          : `User ${result.userId} had no wrong console codes to clear.`,
    found: userFound,
  }),
  handle(roleAndAuditCommands.list, {
    run: async (app) => ({ command: 'role list', operators: await listOperators(app.db) }),
    format: ({ operators }) =>
      operators.length
        ? table(
            ['USER', 'ROLE', 'PHONE', 'EMAIL', 'NICKNAME', 'GRANTED', 'LOCKED UNTIL'],
            operators.map((entry) => [
              entry.userId,
              entry.role,
              orDash(entry.phone),
              orDash(entry.email),
              entry.nickname,
              time(entry.grantedAt),
              entry.lockedUntil ? time(entry.lockedUntil) : '-',
            ]),
          )
        : 'Nobody has a role yet: npm run admin -- role grant <user> admin',
  }),
  handle(roleAndAuditCommands.auditList, {
    run: async (app, args) => ({ command: 'audit list', ...(await auditPage(app.db, args)), page: args.page, size: args.size }),
    format: (result) =>
      result.rows.length
        ? `${table(
            ['ID', 'AT', 'ACTOR', 'FROM', 'ACTION', 'TARGET', 'BEFORE', 'AFTER'],
            result.rows.map((entry) => [
              entry.id,
              time(entry.at),
              entry.actor,
              orDash(entry.address),
              entry.action,
              orDash(entry.target),
              JSON.stringify(entry.before),
              JSON.stringify(entry.after),
            ]),
          )}\n\n${pageLine(result)}`
        : 'No audit lines.',
  }),
  handle(roleAndAuditCommands.auditExport, {
    run: async (app) => ({ command: 'audit export', csv: auditCsv(await auditEntries(app.db, exportLimit)) }),
    format: ({ csv }) => csv.trimEnd(),
  }),
]);
