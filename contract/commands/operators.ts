/**
 * The operators' commands about who runs the shop and what they did: `role grant <user> support|operator|admin`,
 * `role revoke <user>`, `role reset-factor <user>`, `role unlock <user>`, `role list`,
 * `audit list [--limit N] [--action <words>] [--target <record>] [--before ID]` and `audit export`.
 */
import * as z from 'zod/mini';
import { AuditEntry, OperatorEntry, OperatorRole, operatorRoles } from '../admin.ts';
import { command, NoArgs, noWords, oneUserWord, UsageError, UserKey } from '../command.ts';
import { multilineText, text } from '../fields.ts';

/** The audit lines `audit list` shows unless told, and at most. */
export const auditListed = { default: 50, max: 10_000 };

const OneUser = z.strictObject({ user: UserKey });
/** An action or record as the audit log names them (`role grant`, `user 12`). */
const AuditWords = text(z.trim(), z.minLength(1), z.maxLength(200));

/** The words of `audit list`'s options → its arguments; the schema bounds the numbers. */
function auditListWords(rest: string[]) {
  const options: { limit?: number; action?: string; target?: string; before?: number } = {};
  for (let i = 0; i < rest.length; i += 2) {
    const [flag, value = ''] = [rest[i], rest[i + 1]];
    if (flag === '--limit' && /^\d{1,9}$/.test(value)) options.limit = Number(value);
    else if (flag === '--action' && value.trim()) options.action = value;
    else if (flag === '--target' && value.trim()) options.target = value;
    else if (flag === '--before' && /^[1-9]\d{0,14}$/.test(value)) options.before = Number(value);
    else
      throw new UsageError(
        `audit list takes --limit N (1 to ${auditListed.max}), --action "<words>" and --target "<record>" (quote them), such as --action "role grant" --target "user 12", and --before ID for older lines`,
      );
  }
  return options;
}

/** `role grant|revoke <user> …`: the user's role before and after (null: none); userId null for a user there is none of. */
const roleChange = { key: text(), userId: z.nullable(z.int()), previous: z.nullable(OperatorRole), role: z.nullable(OperatorRole) };

export const roleAndAuditCommands = {
  grant: command({
    name: 'role grant',
    role: 'admin',
    usage: `role grant <user> <role>        give a user a role in the console: ${operatorRoles.join(', ')}`,
    args: z.strictObject({ user: UserKey, role: OperatorRole }),
    words(rest) {
      const { user } = oneUserWord('role grant')(rest.slice(0, 1));
      const role = operatorRoles.find((name) => name === rest[1]);
      if (rest.length !== 2 || !role) throw new UsageError(`role grant takes a user and one of ${operatorRoles.join(', ')}`);
      return { user, role };
    },
    result: roleChange,
  }),
  revoke: command({
    name: 'role revoke',
    role: 'admin',
    usage: 'role revoke <user>              take a user’s role away',
    args: OneUser,
    words: oneUserWord('role revoke'),
    result: roleChange,
  }),
  resetFactor: command({
    name: 'role reset-factor',
    role: 'admin',
    usage: 'role reset-factor <user>        forget a user’s console authenticator and recovery codes (a lost phone)',
    args: OneUser,
    words: oneUserWord('role reset-factor'),
    /** Whether the user had an authenticator to forget (they enrol anew at their next console sign-in); userId null for no such user. */
    result: { key: text(), userId: z.nullable(z.int()), reset: z.boolean() },
  }),
  unlock: command({
    name: 'role unlock',
    role: 'admin',
    usage: 'role unlock <user>              let a user whose wrong codes locked their console sign-in try again now',
    args: OneUser,
    words: oneUserWord('role unlock'),
    /** Whether wrong console codes had locked the user's sign-in, or counted towards it (now cleared); userId null for no such user. */
    result: { key: text(), userId: z.nullable(z.int()), unlocked: z.boolean() },
  }),
  list: command({
    name: 'role list',
    role: 'admin',
    usage: 'role list                       everyone with a role',
    args: NoArgs,
    words: noWords('role list'),
    result: { operators: z.array(OperatorEntry) },
  }),
  auditList: command({
    name: 'audit list',
    role: 'admin',
    usage: `audit list [--limit N] [--action "<words>"] [--target "<record>"] [--before ID]
                                  the audit log, newest first (default ${auditListed.default})`,
    /** `action`: only this action; `target`: only lines about this record; `before`: only lines older than this id (the next page). */
    args: z.strictObject({
      limit: z._default(z.int().check(z.minimum(1), z.maximum(auditListed.max)), auditListed.default),
      action: z.optional(AuditWords),
      target: z.optional(AuditWords),
      before: z.optional(z.int().check(z.positive(), z.maximum(Number.MAX_SAFE_INTEGER))),
    }),
    words: auditListWords,
    result: { entries: z.array(AuditEntry) },
  }),
  auditExport: command({
    name: 'audit export',
    role: 'admin',
    usage: 'audit export                    the whole audit log as CSV, oldest first (> audit.csv)',
    args: NoArgs,
    words(rest) {
      if (rest.length) throw new UsageError('audit export takes nothing more; send it to a file: npm run admin -- audit export > audit.csv');
      return {};
    },
    /** The entries as CSV, oldest first, for a spreadsheet. */
    result: { csv: multilineText() },
  }),
};
