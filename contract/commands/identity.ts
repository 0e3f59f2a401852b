/** The operators' commands about users and their sessions: `session end`, `users list` and `users show`. */
import * as z from 'zod/mini';
import { UserDetail, UserSummary } from '../admin.ts';
import { command, UsageError } from '../command.ts';
import { text } from '../fields.ts';
import { listArgs, listPage, listSize, listWords } from '../list.ts';

/** The columns `users list` sorts by. */
export const userSorts = ['created', 'nickname', 'email', 'phone'] as const;

/** A day as a date field gives it (YYYY-MM-DD), read as a UTC day. */
const Day = z.iso.date({ error: 'a day is written YYYY-MM-DD' });

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
    usage: `users list [--search <words>] [--since DAY] [--until DAY] [--sort ${userSorts.join('|')}] [--asc|--desc] [--page N] [--size N]
                                  users, newest first unless sorted, a page at a time (${listSize.default}, at most ${listSize.max}):
                                  whose phone, e-mail or nickname holds the words (or whose id they are),
                                  who signed up between the days given (YYYY-MM-DD, both included)`,
    args: z.strictObject({
      ...listArgs(userSorts, 'created'),
      search: z.optional(text(z.trim(), z.minLength(1), z.maxLength(320))),
      since: z.optional(Day),
      until: z.optional(Day),
    }),
    words: listWords('users list', { '--search': 'search', '--since': 'since', '--until': 'until' }),
    result: listPage(UserSummary),
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
