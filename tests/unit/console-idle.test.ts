/**
 * The console's idle end in the store (src/features/console/console-store.ts),
 * on a clock the test moves: every console call the server answers counts as
 * use; the warning comes `idleWarningMs` before the end, counting down; "stay"
 * is a call the server counts (the session check, well past the server's
 * slack in writing the last use); and at the end the page's session is over,
 * back at sign-in with a notice — no earlier than the server could end it.
 */
import { describe, expect, it } from 'vitest';
import type { ApiRoute } from '#contract/api.ts';
import { command, NoArgs, noWords } from '#contract/command.ts';
import { consoleCalls, consoleSessionLimits, type ConsoleSession } from '#contract/console.ts';
import { ErrorCode } from '#contract/errors.ts';
import { createConsole } from '@/features/console/console-store.ts';
import type { Call } from '@/lib/api/client.ts';
import { ApiFailure } from '@/lib/api/errors.ts';

/** A command of the test's own: what it does is no matter here, only that the server answered it. */
const ping = command({ name: 'ping', role: 'support', usage: 'ping', args: NoArgs, result: {}, words: noWords('ping') });
const session: ConsoleSession = { UserId: 3, Nickname: 'Ops', Role: 'support', Csrf: 'csrf-value', ExpiresAt: 0 };
const { idleMs, idleWarningMs, lastUseSlackMs } = consoleSessionLimits;
/** When the page ends a session last used at 0: early by the server's slack, so the server's own end is never before it. */
const pageEnd = idleMs - lastUseSlackMs;

/** A console signed in at time 0, on a clock the test sets; `fail` makes the next call fail so. */
async function signedIn() {
  let now = 0;
  let fail: ApiFailure | null = null;
  const sent: ApiRoute[] = [];
  const call: Call = async (route) => {
    sent.push(route);
    if (fail) throw fail;
    if ((route as ApiRoute) === consoleCalls.session) return session as never;
    return { command: 'ping' } as never;
  };
  const console = createConsole({ call, authCall: call, isLoggedIn: () => true, now: () => now });
  await console.check();
  expect(console.$step.get()).toEqual({ step: 'ready' });
  sent.length = 0;
  return {
    console,
    sent,
    at: (ms: number) => (now = ms),
    failNext: (failure: ApiFailure | null) => (fail = failure),
  };
}

describe('the console’s idle end', () => {
  it('is far off after signing in, warns in its last minute counting down the seconds, then ends at sign-in with a notice', async () => {
    const { console, at } = await signedIn();
    expect(idleWarningMs).toBe(60_000);
    at(pageEnd - idleWarningMs - 1);
    expect(console.idle()).toEqual({ warning: false });
    at(pageEnd - idleWarningMs);
    expect(console.idle()).toEqual({ warning: true, secondsLeft: 60 });
    at(pageEnd - 1_500);
    expect(console.idle()).toEqual({ warning: true, secondsLeft: 2 });
    expect(console.$step.get()).toEqual({ step: 'ready' });
    at(pageEnd);
    expect(console.idle()).toEqual({ warning: false });
    expect(console.$step.get()).toEqual({ step: 'signIn' });
    expect(console.$session.get()).toBeNull();
    expect(console.$notice.get()).toEqual({ kind: 'error', key: 'console.idle.ended' });
    // Over is over: the clock going on changes nothing.
    at(pageEnd + idleMs);
    expect(console.idle()).toEqual({ warning: false });
  });

  it('counts each console call the server answered from when it began', async () => {
    const { console, at } = await signedIn();
    at(10 * 60_000);
    await console.run(ping, {});
    at(pageEnd + 60_000);
    expect(console.idle()).toEqual({ warning: false });
    at(10 * 60_000 + pageEnd - 30_000);
    expect(console.idle()).toEqual({ warning: true, secondsLeft: 30 });
  });

  it('does not count a call that failed: the server may not have seen it', async () => {
    const { console, at, failNext } = await signedIn();
    at(10 * 60_000);
    failNext(new ApiFailure('network'));
    await expect(console.run(ping, {})).rejects.toThrow();
    at(pageEnd - 30_000);
    expect(console.idle()).toEqual({ warning: true, secondsLeft: 30 });
  });

  it('stays signed in with the session check, which puts the end a whole idle period on', async () => {
    const { console, at, sent } = await signedIn();
    at(pageEnd - 20_000);
    expect(console.idle()).toEqual({ warning: true, secondsLeft: 20 });
    await console.stay();
    expect(sent).toEqual([consoleCalls.session]);
    // The page's last use is long past the server's slack in writing it, so the server wrote it too.
    expect(pageEnd - 20_000).toBeGreaterThan(lastUseSlackMs);
    expect(console.idle()).toEqual({ warning: false });
    at(pageEnd - 20_000 + pageEnd - idleWarningMs);
    expect(console.idle()).toEqual({ warning: true, secondsLeft: 60 });
    expect(console.$step.get()).toEqual({ step: 'ready' });
  });

  it('goes to sign-in when "stay" finds the session already over', async () => {
    const { console, at, failNext } = await signedIn();
    at(pageEnd - 5_000);
    failNext(new ApiFailure('server', { code: ErrorCode.ConsoleSignIn, serverMessage: 'Please sign in to the console again.' }));
    await console.stay();
    expect(console.$step.get()).toEqual({ step: 'signIn' });
    expect(console.idle()).toEqual({ warning: false });
  });

  it('has no idle end without a session', async () => {
    const console = createConsole({ call: async () => null as never, authCall: async () => null as never, isLoggedIn: () => false, now: () => idleMs * 10 });
    await console.check();
    expect(console.idle()).toEqual({ warning: false });
    expect(console.$notice.get()).toBeNull();
  });
});
