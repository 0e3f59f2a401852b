/**
 * The operators' commands about who runs the shop and what they did: `role grant <user> support|operator|admin`,
 * `role revoke <user>`, `role reset-factor <user>`, `role unlock <user>`, `role list`,
 * `audit list` (sorted, paged, by action, record, actor and days) and `audit export`.
 */
import * as z from 'zod/mini';
import { AuditEntry, OperatorEntry, OperatorRole, operatorRoles } from '../admin.ts';
import { command, NoArgs, noWords, oneUserWord, UsageError, UserKey } from '../command.ts';
import { multilineText, text } from '../fields.ts';
import { listArgs, listPage, listSize, listWords } from '../list.ts';

/** The columns `audit list` sorts by: when, the action and who. */
export const auditSorts = ['at', 'action', 'actor'] as const;

const OneUser = z.strictObject({ user: UserKey });
/** An action or record as the audit log names them (`role grant`, `user 12`), or words of who did it. */
const AuditWords = text(z.trim(), z.minLength(1), z.maxLength(200));
/** A day as a date field gives it (YYYY-MM-DD), read as a UTC day. */
const Day = z.iso.date({ error: 'a day is written YYYY-MM-DD' });

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
    usage: `audit list [--action "<words>"] [--target "<record>"] [--actor "<words>"] [--since DAY] [--until DAY]
           [--sort ${auditSorts.join('|')}] [--asc|--desc] [--page N] [--size N]
                                  the audit log, newest first unless sorted, a page at a time (${listSize.default},
                                  at most ${listSize.max}); quote words: --action "role grant" --target "user 12"`,
    /** `action`: only this action; `target`: only lines about this record; `actor`: only lines whose actor holds these words; days both included (UTC). */
    args: z.strictObject({
      ...listArgs(auditSorts, 'at'),
      action: z.optional(AuditWords),
      target: z.optional(AuditWords),
      actor: z.optional(AuditWords),
      since: z.optional(Day),
      until: z.optional(Day),
    }),
    words: listWords('audit list', { '--action': 'action', '--target': 'target', '--actor': 'actor', '--since': 'since', '--until': 'until' }),
    result: listPage(AuditEntry),
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
