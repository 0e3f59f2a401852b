/**
 * The operators' commands about who runs the shop and what they did:
 * `role grant <user> support|operator|admin`, `role revoke <user>`,
 * `role list`, `role reset-factor <user>`, `role unlock <user>`, `audit list [--limit N] [--action <words>]`
 * and `audit export`.
 */
import { operatorRoles, type OperatorRole } from '#contract/admin.ts';
import { commandsPlugin, oneUser, UsageError, type AdminCommand, type ResultOf } from '../../admin-command.ts';
import { noUser, orDash, table, time } from '../../admin-text.ts';
import { auditCsv, auditEntries, recordAudit, type AuditQuery } from '../../db/audit.ts';
import { grantRole, listOperators, revokeRole } from './roles.ts';
import { resetSecondFactor, unlockSecondFactor } from './second-factor.ts';

const defaultLimit = 50;
const maxLimit = 10_000;
/** All of it, for a spreadsheet; a log larger than this is exported in pages by id (`--before`, a later change). */
const exportLimit = 100_000;

function parseRole(word: string | undefined): OperatorRole {
  const role = operatorRoles.find((name) => name === word);
  if (!role) throw new UsageError(`role grant takes a user and one of ${operatorRoles.join(', ')}`);
  return role;
}

function parseAuditOptions(rest: string[]): AuditQuery {
  const options: AuditQuery = { limit: defaultLimit };
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value] = [rest[i], rest[i + 1]];
    if (flag === '--limit' && /^\d+$/.test(value ?? '') && Number(value) >= 1 && Number(value) <= maxLimit) options.limit = Number(value);
    else if (flag === '--action' && value?.trim()) options.action = value.trim();
    else if (flag === '--target' && value?.trim()) options.target = value.trim();
    else if (flag === '--before' && /^[1-9]\d{0,14}$/.test(value ?? '')) options.before = Number(value);
    else
      throw new UsageError(
        `audit list takes --limit N (1 to ${maxLimit}), --action "<words>" and --target "<record>" (quote them), such as --action "role grant" --target "user 12", and --before ID for older lines`,
      );
  }
  return options;
}

const roleChange = (result: ResultOf<'role grant' | 'role revoke'>) => {
  if (result.userId === null) return noUser(result.key);
  if (result.previous === result.role) return result.role ? `User ${result.userId} is already ${result.role}.` : `User ${result.userId} has no role.`;
  return `User ${result.userId}: ${result.previous ?? 'no role'} → ${result.role ?? 'no role'}.`;
};

export const operatorCommands: AdminCommand[] = [
  {
    name: 'role grant',
    role: 'admin',
    usage: `role grant <user> <role>        give a user a role in the console: ${operatorRoles.join(', ')}`,
    parse(rest) {
      const key = oneUser('role grant', rest.slice(0, 1));
      if (rest.length !== 2) throw new UsageError(`role grant takes a user and one of ${operatorRoles.join(', ')}`);
      const role = parseRole(rest[1]);
      return async ({ db, findUser, actor }) => {
        const user = await findUser(key);
        if (!user) return { command: 'role grant', key, userId: null, previous: null, role: null };
        return { command: 'role grant', key, userId: user.id, ...(await grantRole(db, actor, user.id, role)) };
      };
    },
    format: roleChange,
    found: (result: ResultOf<'role grant'>) => result.userId !== null,
  },
  {
    name: 'role revoke',
    role: 'admin',
    usage: 'role revoke <user>              take a user’s role away',
    parse(rest) {
      const key = oneUser('role revoke', rest);
      return async ({ db, findUser, actor }) => {
        const user = await findUser(key);
        if (!user) return { command: 'role revoke', key, userId: null, previous: null, role: null };
        return { command: 'role revoke', key, userId: user.id, ...(await revokeRole(db, actor, user.id)) };
      };
    },
    format: roleChange,
    found: (result: ResultOf<'role revoke'>) => result.userId !== null,
  },
  {
    name: 'role reset-factor',
    role: 'admin',
    usage: 'role reset-factor <user>        forget a user’s console authenticator and recovery codes (a lost phone)',
    parse(rest) {
      const key = oneUser('role reset-factor', rest);
      return async ({ db, findUser, actor }) => {
        const user = await findUser(key);
        if (!user) return { command: 'role reset-factor', key, userId: null, reset: false };
        const reset = await db.transaction(async (tx) => {
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
      };
    },
    format: (result: ResultOf<'role reset-factor'>) =>
      result.userId === null
        ? noUser(result.key)
        : result.reset
          ? `User ${result.userId} sets up a new authenticator at their next console sign-in.`
          : `User ${result.userId} had no authenticator.`,
    found: (result: ResultOf<'role reset-factor'>) => result.userId !== null,
  },
  {
    name: 'role unlock',
    role: 'admin',
    usage: 'role unlock <user>              let a user whose wrong codes locked their console sign-in try again now',
    parse(rest) {
      const key = oneUser('role unlock', rest);
      return async ({ db, findUser, actor }) => {
        const user = await findUser(key);
        if (!user) return { command: 'role unlock', key, userId: null, unlocked: false };
        const unlocked = await db.transaction(async (tx) => {
          const before = await unlockSecondFactor(tx, user.id);
          if (before) await recordAudit(tx, actor, { action: 'role unlock', target: `user ${user.id}`, before, after: { failedTries: 0, lockedUntil: null } });
          return before !== null;
        });
        return { command: 'role unlock', key, userId: user.id, unlocked };
      };
    },
    format: (result: ResultOf<'role unlock'>) =>
      result.userId === null
        ? noUser(result.key)
        : result.unlocked
          ? `User ${result.userId} may sign in to the console again.`
          : `User ${result.userId} had no wrong console codes to clear.`,
    found: (result: ResultOf<'role unlock'>) => result.userId !== null,
  },
  {
    name: 'role list',
    role: 'admin',
    usage: 'role list                       everyone with a role',
    parse(rest) {
      if (rest.length) throw new UsageError('role list takes nothing more');
      return async ({ db }) => ({ command: 'role list', operators: await listOperators(db) });
    },
    format: ({ operators }: ResultOf<'role list'>) =>
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
  },
  {
    name: 'audit list',
    role: 'admin',
    usage: `audit list [--limit N] [--action "<words>"] [--target "<record>"] [--before ID]
                                  the audit log, newest first (default 50)`,
    parse(rest) {
      const options = parseAuditOptions(rest);
      return async ({ db }) => ({ command: 'audit list', entries: await auditEntries(db, options) });
    },
    format: ({ entries }: ResultOf<'audit list'>) =>
      entries.length
        ? table(
            ['ID', 'AT', 'ACTOR', 'FROM', 'ACTION', 'TARGET', 'BEFORE', 'AFTER'],
            entries.map((entry) => [
              entry.id,
              time(entry.at),
              entry.actor,
              orDash(entry.address),
              entry.action,
              orDash(entry.target),
              JSON.stringify(entry.before),
              JSON.stringify(entry.after),
            ]),
          )
        : 'The audit log is empty.',
  },
  {
    name: 'audit export',
    role: 'admin',
    usage: 'audit export                    the whole audit log as CSV, oldest first (> audit.csv)',
    parse(rest) {
      if (rest.length) throw new UsageError('audit export takes nothing more; send it to a file: npm run admin -- audit export > audit.csv');
      return async ({ db }) => ({ command: 'audit export', csv: auditCsv(await auditEntries(db, { limit: exportLimit })) });
    },
    format: ({ csv }: ResultOf<'audit export'>) => csv.trimEnd(),
  },
];

export default commandsPlugin('operators', operatorCommands);
