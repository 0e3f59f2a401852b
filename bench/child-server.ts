/**
 * The server children the API, hub, raffle and payment benchmarks share, both
 * sides of them. The parent (`api.ts`, `hub.ts`, `raffle.ts`, `pay.ts`):
 * `startServerChild` forks a server script with an environment and waits for
 * its first IPC message, which carries the port it listens on;
 * `serverRequests` asks it things over IPC afterwards; `stopServerChild` stops
 * it; `runBenchmark` runs the benchmark, reports a failure, and stops every
 * child and removes the temporary work folder at the end, or kills the
 * children and removes the folder on SIGINT or SIGTERM. The child
 * (`api-server.ts`, `hub-server.ts`, `raffle-server.ts`, `pay-server.ts`,
 * `pay-sandbox.ts`): `answerParent` answers those requests; `closeWithParent`
 * closes the app and exits on SIGINT or SIGTERM, or when the parent goes away.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';

// ── The parent side ──────────────────────────────────────────────────────────

/** The server children of this process that have not exited, in the order they were forked: what a signal kills and `runBenchmark` stops. */
const children = new Set<ChildProcess>();

/**
 * Forks `script` with `env` (stdout and stderr go to this process's) and
 * resolves with the child and its first IPC message once that message carries
 * a port. Rejects on an unexpected first message, or when the child fails or
 * exits before it; it sets no deadline of its own, since a start that is slow
 * on a busy machine is still a start.
 */
export function startServerChild<Ready extends { port: number }>(
  script: string,
  env: NodeJS.ProcessEnv,
  options: { execArgv?: string[] } = {},
): Promise<{ child: ChildProcess; ready: Ready }> {
  const child = fork(script, [], { env, execArgv: options.execArgv, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  child.once('exit', () => children.delete(child));
  return new Promise((resolve, reject) => {
    const settle = (action: () => void) => {
      child.off('message', onMessage).off('exit', onExit);
      action();
    };
    const onMessage = (message: Partial<Ready>) =>
      settle(() =>
        typeof message?.port === 'number'
          ? resolve({ child, ready: message as Ready })
          : reject(new Error(`Unexpected message from the server: ${JSON.stringify(message)}`)),
      );
    const onExit = (code: number | null, signal: NodeJS.Signals | null) =>
      settle(() => reject(new Error(`The server exited before listening (code ${code}, signal ${signal})`)));
    child.once('message', onMessage);
    child.once('exit', onExit);
    // Kept for the child's life: a later 'error' (a failed kill or send) must not go unhandled.
    child.on('error', (error) => settle(() => reject(error)));
  });
}

/** One request to the server child over IPC; resolves with its answer (without `id` and `ok`). */
export type AskServer = <T>(request: { type: string } & Record<string, unknown>) => Promise<T>;

/**
 * Requests to `child` over IPC, each sent as `{ id, type, … }` and settled by
 * the child's answer with the same id (`answerParent`): resolved when `ok`,
 * rejected with the server's error otherwise, after `timeoutMs`, or when the
 * child exits first.
 */
export function serverRequests(child: ChildProcess, timeoutMs = 30_000): AskServer {
  let nextId = 1;
  /** Requests waiting for the server's answer; each `ask` knows the type its answer has. */
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', ({ id, ok, error, ...answer }: { id: number; ok: boolean; error?: string }) => {
    const request = pending.get(id);
    if (!request) return;
    pending.delete(id);
    if (ok) request.resolve(answer);
    else request.reject(new Error(`The server failed a request: ${error}`));
  });
  child.once('exit', (code, signal) => {
    const error = new Error(`The server exited (code ${code}, signal ${signal})`);
    for (const request of pending.values()) request.reject(error);
    pending.clear();
  });
  return <T>(request: { type: string } & Record<string, unknown>) => {
    if (!child.connected) return Promise.reject(new Error('The server is not running'));
    const id = nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        pending.delete(id);
        reject(new Error(`The server did not answer ${JSON.stringify(request)} within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      pending.set(id, {
        resolve: (value) => {
          clearTimeout(timer);
          resolve(value as T);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      });
      child.send({ ...request, id });
    });
  };
}

/** Stops the child: SIGTERM, then SIGKILL if it has not gone after 5 s. */
export async function stopServerChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

/**
 * Runs a benchmark around its server children: `run` does the work, and a
 * failure prints `<title> benchmark failed: <message>` and sets exit code 1.
 * Then, in order: `beforeStop`, the children stopped (the last forked first:
 * it may depend on the ones before, as the payment server on its sandbox),
 * `afterStop` (what else the benchmark started, such as a database), `work`
 * removed. On SIGINT or SIGTERM the children are killed at once, `afterStop`
 * runs, `work` goes and the process exits with 130.
 */
export async function runBenchmark(options: {
  title: string;
  work: string;
  run: () => Promise<void>;
  beforeStop?: () => Promise<void>;
  afterStop?: () => Promise<void>;
}): Promise<void> {
  const { title, work, run, beforeStop, afterStop } = options;
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, async () => {
      for (const child of children) child.kill('SIGKILL');
      await afterStop?.().catch(() => {});
      rmSync(work, { recursive: true, force: true });
      process.exit(130);
    });
  }
  try {
    await run();
  } catch (error) {
    console.error(`\n${title} benchmark failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exitCode = 1;
  } finally {
    await beforeStop?.().catch(() => {});
    for (const child of [...children].reverse()) await stopServerChild(child);
    await afterStop?.().catch(() => {});
    rmSync(work, { recursive: true, force: true });
  }
}

// ── The child side ───────────────────────────────────────────────────────────

/**
 * Answers the parent's requests (`serverRequests`): `{ id, ok: true, …answer }`
 * with what `answer` gives, or `{ id, ok: false, error }` when it throws.
 */
export function answerParent<Request extends { type: string }>(answer: (request: Request) => object | Promise<object>): void {
  if (!process.send) throw new Error(`${process.argv[1]} is started by its benchmark (it needs the IPC channel)`);
  const send = process.send.bind(process);
  process.on('message', async ({ id, ...request }: Request & { id: number }) => {
    try {
      send({ ...(await answer(request as unknown as Request)), id, ok: true });
    } catch (error) {
      send({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  });
}

/** Closes `app` and exits on SIGINT or SIGTERM, or when the IPC channel to the parent closes: the server never outlives its benchmark. */
export function closeWithParent(app: { close(): PromiseLike<unknown> }): void {
  let closing = false;
  async function shutdown(): Promise<void> {
    if (closing) return;
    closing = true;
    await Promise.resolve(app.close()).catch(() => {});
    process.exit(0);
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, shutdown);
  process.once('disconnect', shutdown);
}
