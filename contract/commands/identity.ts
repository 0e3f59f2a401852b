/** The operators' commands about users and their sessions: `session end`, `users list` and `users show`. */
import * as z from 'zod/mini';
import { UserDetail, UserSummary } from '../admin.ts';
import { command, UsageError } from '../command.ts';
import { text } from '../fields.ts';

/** How many users `users list` shows unless told, and at most. */
export const usersListed = { default: 50, max: 10_000 };

export const identityCommands = {
  endSession: command({
    name: 'session end',
    role: 'operator',
    usage: "session end <session id>        sign a customer's device out (users show lists them)",
    args: z.strictObject({ sessionId: text(z.regex(/^[0-9a-f-]{36}$/)) }),
    words(rest) {
      if (rest.length !== 1) throw new UsageError('session end takes one session id (users show lists them)');
      return { sessionId: rest[0] };
    },
    /** `userId`: whose session it was, or null when no session of that id was open. */
    result: { sessionId: text(), userId: z.nullable(z.int()) },
  }),
  list: command({
    name: 'users list',
    role: 'support',
    usage: `users list [--limit N]          newest users first (default ${usersListed.default})`,
    args: z.strictObject({ limit: z._default(z.int().check(z.minimum(1), z.maximum(usersListed.max)), usersListed.default) }),
    words(rest) {
      if (rest.length === 0) return {};
      const [flag, value = '', ...extra] = rest;
      if (flag !== '--limit' || extra.length > 0 || !/^\d+$/.test(value)) throw new UsageError(`users list takes only --limit N (1 to ${usersListed.max})`);
      return { limit: Number(value) };
    },
    result: { users: z.array(UserSummary) },
  }),
  show: command({
    name: 'users show',
    role: 'support',
    usage: 'users show <id|phone|email|order>   one user (or an order’s), bound accounts, active sessions and recent logins',
    args: z.strictObject({ user: text(z.trim(), z.minLength(1), z.maxLength(320)) }),
    words(rest) {
      if (rest.length !== 1) throw new UsageError('users show takes one id, phone, e-mail or order number');
      return { user: rest[0] };
    },
    result: { key: text(), user: z.nullable(UserDetail) },
  }),
};
