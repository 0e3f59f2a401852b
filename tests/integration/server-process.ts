/** The real server, `node server/main.ts`, in a child process: for tests that stop it as an operator (or a crash) would. */
import { spawn } from 'node:child_process';

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
  const listening = async () => {
    for (let i = 0; i < 200 && !/running at/.test(stdout); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    const port = /localhost:(\d+)/.exec(stdout)?.[1];
    if (!port) throw new Error(`The server did not start:\n${stdout}\n${stderr}`);
    return Number(port);
  };
  return { child, exit, listening, stderr: () => stderr };
}
