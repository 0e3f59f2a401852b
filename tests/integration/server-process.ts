/** The real server, `node server/main.ts`, in a child process: for tests that stop it as an operator (or a crash) would. */
import { spawn } from 'node:child_process';

/** The port `npm start` (server/main.ts) says it is running at, once its output says so. */
export const runningPort = (output: string): number | undefined => {
  const port = /running at http:\/\/localhost:(\d+)/.exec(output)?.[1];
  return port ? Number(port) : undefined;
};

/** `node server/main.ts` in a child process, with its output collected. */
export async function runServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['server/main.ts'], {
    env: { ...process.env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => (stdout += chunk));
  child.stderr.on('data', (chunk) => (stderr += chunk));
  const exit = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  // After 'close' the process has exited and all its output has been read.
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  /** The port once the server says it is running, however long that takes (the test's timeout bounds it); its output as the error if it ends first. */
  const listening = () =>
    new Promise<number>((resolve, reject) => {
      const running = () => {
        const port = runningPort(stdout);
        if (!port) return;
        child.stdout.off('data', running);
        resolve(port);
      };
      child.stdout.on('data', running);
      running();
      // Too late to matter once it has resolved.
      void closed.then(() => reject(new Error(`The server ended (${child.exitCode ?? child.signalCode}) before it was running:\n${stdout}\n${stderr}`)));
    });
  return { child, exit, listening, stderr: () => stderr };
}
