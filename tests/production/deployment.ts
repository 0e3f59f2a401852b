/**
 * The reference deployment (deploy/), started on this machine as docs/deploy.md
 * describes it: Debian's nginx serving the built site and proxying to two API
 * instances in production mode, installed from the release with
 * `npm ci --omit=dev` (./install.ts), which share Debian's PostgreSQL and
 * Redis and an S3-compatible bucket (s3rver) but nothing on disk — each has a
 * DATA_DIR of its own, as on two hosts, the server keys coming from the
 * database — with the outside providers played by ./providers.ts. The files of
 * deploy/ are used as they are; only what names this machine (ports, folders,
 * secrets) is replaced — /srv/beacon by the installed release, the upstream's
 * addresses by the instances' ports, the env file's provider settings by the
 * doubles'.
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { freePort } from '../setup/free-port.ts';
import { startPostgres } from '../setup/postgres.ts';
import { startRedis } from '../setup/redis.ts';
import { startS3 } from '../setup/s3.ts';
import { installRelease } from './install.ts';
import { systemdPath } from './release-instance.ts';

const root = path.resolve(import.meta.dirname, '../..');
const deployDir = path.join(root, 'deploy');
export const nginxBinary = '/usr/sbin/nginx';
const brotliModule = '/usr/lib/nginx/modules/ngx_http_brotli_static_module.so';

/** One API instance, run as deploy/systemd/beacon-api@.service runs it. */
export interface Instance {
  /** `A` or `B`, as the test's output names it. */
  name: string;
  port: number;
  /** `127.0.0.1:<port>`, as nginx's log names the instance that answered. */
  address: string;
  /** Its own DATA_DIR, as on a host of its own. */
  dataDir: string;
  /** Starts it with the deployment's settings, `changes` over them (null: a setting left out); resolves once it is ready. */
  start(changes?: Record<string, string | null>): Promise<void>;
  /** Sends the signal and waits for the process to end; gives its exit code (null when killed). */
  stop(signal: 'SIGTERM' | 'SIGKILL'): Promise<number | null>;
  /** Freezes the process (SIGSTOP: it neither answers nor dies) or wakes it (SIGCONT). */
  freeze(frozen: boolean): void;
  /** Whether its process is running (it did not exit by itself). */
  running(): boolean;
}

/** A server the deployment shares (PostgreSQL, Redis), which a test may stop and start again as production would. */
export interface SharedServer {
  shutDown(): Promise<void>;
  startAgain(): Promise<void>;
}

export interface Deployment {
  /** nginx's address: the site and the API, as customers reach them. */
  origin: string;
  instances: [Instance, Instance];
  postgres: SharedServer;
  redis: SharedServer;
  /** The instance nginx's log says answered the latest request matching `pattern`. */
  servedBy(pattern: RegExp): Instance | undefined;
  /** The messages the SMS gateway was given for a phone number, oldest first. */
  textsTo(phone: string): Promise<string[]>;
  /** The customer's phone pays an order's WeChat Pay code, through the payment provider. */
  pay(orderNumber: string): Promise<void>;
  /** Scans and pays the order's Alipay code, as the customer's phone would. */
  payWithAlipay(orderNumber: string): Promise<void>;
  /** Makes the providers the instances call slow, failing or cutting connections (null: as they should be). */
  providerFaults(faults: ProviderFaults): Promise<void>;
  /** The S3 settings the instances keep their uploads with (the bucket). */
  bucketSettings: Record<string, string>;
  /** `npm run admin -- …` with the instances' settings; answers what it printed. */
  admin(...words: string[]): string;
  /**
   * Takes an instance out of nginx's upstream (`down`) or puts it back, as
   * docs/deploy.md's rolling restart does, and waits for nginx's new workers.
   */
  setDown(instance: Instance, down: boolean): Promise<void>;
  close(): Promise<void>;
}

/** What ./providers.ts's control server takes: a fault for WeChat Pay's API and one for the message gateway. */
export interface ProviderFaults {
  wechatpay?: 'slow' | 'fail' | 'reset' | 'garbage' | null;
  sms?: 'slow' | 'fail' | 'reset' | 'garbage' | null;
  slowMs?: number;
}

/** KEY=VALUE lines, as systemd's EnvironmentFile reads them (comments and blank lines skipped). */
function readEnvFile(file: string): Record<string, string> {
  const settings: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const match = /^([A-Z][A-Z0-9_]*)=(.*)$/.exec(line.trim());
    if (match) settings[match[1]] = match[2];
  }
  return settings;
}

/** The unit's directives that say how an instance runs. */
function readUnit(file: string): { workingDirectory: string; environment: Record<string, string>; execStart: string[] } {
  const lines = readFileSync(file, 'utf8').split('\n');
  const value = (key: string) => lines.filter((line) => line.startsWith(`${key}=`)).map((line) => line.slice(key.length + 1).trim());
  return {
    workingDirectory: value('WorkingDirectory')[0],
    environment: Object.fromEntries(value('Environment').map((pair) => pair.split('=', 2) as [string, string])),
    execStart: value('ExecStart')[0].split(/\s+/),
  };
}

/** Debian's nginx with the Brotli module, installed when missing (as root). */
export function installNginxIfMissing(): void {
  if (existsSync(nginxBinary) && existsSync(brotliModule)) return;
  if (process.getuid?.() !== 0)
    throw new Error('nginx is missing. Install the Debian packages with: sudo apt-get install nginx libnginx-mod-http-brotli-static');
  console.log('Installing Debian nginx for the deployment test…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const policy = spawnSync('apt-cache', ['policy', 'nginx'], { encoding: 'utf8' });
  if (!/Candidate:\s*(?!\(none\))\S+/.test(policy.stdout ?? '')) execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit', env });
  execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'nginx', 'libnginx-mod-http-brotli-static'], { stdio: 'inherit', env });
  // The package starts a system-wide server on port 80; the test runs its own.
  spawnSync('service', ['nginx', 'stop'], { stdio: 'ignore' });
}

/**
 * A folder nginx runs from (`nginx -p <folder>`): deploy/nginx as it is under
 * `beacon/`, a `temp/` for its buffers, and its own `nginx.conf`, whose
 * `http { }` block holds `http` (what names this machine's ports and files).
 */
export function nginxFolder(folder: string, http: string): void {
  mkdirSync(path.join(folder, 'temp'), { recursive: true });
  symlinkSync(path.join(deployDir, 'nginx'), path.join(folder, 'beacon'));
  const temp = (name: string) => path.join(folder, 'temp', name);
  writeFileSync(
    path.join(folder, 'nginx.conf'),
    `load_module ${brotliModule};
worker_processes 2;
pid ${path.join(folder, 'nginx.pid')};
error_log ${path.join(folder, 'error.log')} warn;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  default_type application/octet-stream;
  client_body_temp_path ${temp('body')};
  proxy_temp_path ${temp('proxy')};
  fastcgi_temp_path ${temp('fastcgi')};
  uwsgi_temp_path ${temp('uwsgi')};
  scgi_temp_path ${temp('scgi')};
  ${http}
}
`,
  );
}

/**
 * What `nginxFolder`'s `http { }` holds for a site on `port`: an access log in
 * `logFormat` (named `test`), the build's maps in `dist`, deploy/nginx's
 * http.conf, an `upstream.conf` the caller writes into `folder`, and one server
 * serving `dist` as site.conf does (and brotli.conf, where asked).
 */
export function siteOnPort({
  folder,
  port,
  dist,
  logFormat,
  brotli = false,
}: {
  folder: string;
  port: number;
  dist: string;
  logFormat: string;
  brotli?: boolean;
}): string {
  return `log_format test '${logFormat}';
  access_log ${path.join(folder, 'access.log')} test;
  include ${path.join(dist, '.nginx-maps.conf')};
  include beacon/http.conf;
  include upstream.conf;
  server {
    listen 127.0.0.1:${port};
    server_name localhost;
    root ${dist};
    include beacon/site.conf;${brotli ? '\n    include beacon/brotli.conf;' : ''}
  }`;
}

/** Polls `url` until it answers 200: a start has no fixed length on a busy machine. */
async function waitFor(url: string, process: ChildProcess, what: string): Promise<void> {
  for (;;) {
    if (process.exitCode !== null || process.signalCode !== null) throw new Error(`${what} ended while starting (see its log)`);
    const answer = await fetch(url).catch(() => null);
    if (answer?.ok) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

function exited(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(child.exitCode);
  return new Promise((resolve) => child.once('exit', (code) => resolve(code)));
}

/** nginx's worker processes that take new connections (not those of an older configuration, shutting down). */
function activeWorkers(master: number): string[] {
  const children = spawnSync('ps', ['-o', 'pid=,args=', '--ppid', String(master)], { encoding: 'utf8' }).stdout;
  return children
    .split('\n')
    .filter((line) => line.includes('worker process') && !line.includes('shutting down'))
    .map((line) => line.trim().split(' ')[0]);
}

/** `nginx -s reload`, then waits until workers of the new configuration have replaced the others. */
async function reloadNginx(master: number, prefix: string): Promise<void> {
  const before = new Set(activeWorkers(master));
  execFileSync(nginxBinary, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-s', 'reload'], { stdio: ['ignore', 'ignore', 'pipe'] });
  for (;;) {
    const now = activeWorkers(master);
    if (now.length > 0 && now.every((pid) => !before.has(pid))) return;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** The providers' doubles, started once they print their addresses. */
async function startProviders(
  folder: string,
): Promise<{ child: ChildProcess; smsGateway: string; wechatpayApi: string; control: string; settings: Record<string, string> }> {
  const child = spawn(path.join(root, 'node_modules/.bin/node'), [path.join(import.meta.dirname, 'providers.ts'), folder], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  for await (const line of createInterface({ input: child.stdout! })) {
    if (line.startsWith('{"smsGateway"')) return { child, ...JSON.parse(line) };
  }
  throw new Error('the providers ended before they answered');
}

/** Everything started so far, stopped last first (also when a start fails half-way). */
class Started {
  private readonly stops: Array<() => Promise<unknown>> = [];
  add<T>(part: T, stop: (part: T) => Promise<unknown>): T {
    this.stops.push(() => stop(part));
    return part;
  }
  async stopAll(): Promise<void> {
    for (const stop of this.stops.splice(0).reverse()) await stop();
  }
}

export async function startDeployment(): Promise<Deployment> {
  const started = new Started();
  try {
    return await start(started);
  } catch (error) {
    await started.stopAll();
    throw error;
  }
}

async function start(started: Started): Promise<Deployment> {
  const work = mkdtempSync(path.join(tmpdir(), 'beacon-deployment-'));
  console.log(`Deployment test folder (logs, nginx's access log): ${work}`);
  const release = await installRelease(root);
  /** The deployment's own place on this machine: the installed release. */
  const here = (text: string) => text.replaceAll('/srv/beacon', release);
  const postgres = started.add(await startPostgres(), (server) => server.stop());
  const redis = started.add(await startRedis(), (server) => server.stop());
  const bucket = started.add(await startS3(), (server) => server.stop());
  const providers = started.add(await startProviders(path.join(work, 'providers')), async ({ child }) => {
    child.kill('SIGTERM');
    await exited(child);
  });
  const nginxPort = await freePort();
  const origin = `http://127.0.0.1:${nginxPort}`;
  /** The customer's phone acts on a sandbox's trade (`wechatpay/sandbox/<order>` or `alipay/sandbox/<order>`). */
  const sandboxAct = async (trade: string, Action: string) => {
    const answer = await fetch(`${providers.wechatpayApi}/dev/${trade}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ Action }),
    });
    if (!answer.ok) throw new Error(`the payment sandbox refused to ${Action} ${trade}: HTTP ${answer.status}`);
  };

  // The env file as a deployment fills it in: this machine's addresses, secrets and files.
  const environment: Record<string, string> = {
    ...Object.fromEntries(Object.entries(readEnvFile(path.join(deployDir, 'api.env.example'))).map(([key, value]) => [key, here(value)])),
    DATABASE_URL: postgres.url,
    REDIS_URL: redis.url,
    KEYS_SEALING_KEY: randomBytes(32).toString('hex'),
    ...bucket.settings,
    SITE_URL: origin,
    ...providers.settings,
    // The e-mails go to the SMS gateway's double too (messages.spec.ts tries the SMTP provider itself).
    EMAIL_PROVIDER: 'http',
    EMAIL_GATEWAY_URL: providers.settings.SMS_GATEWAY_URL,
    EMAIL_GATEWAY_SECRET: providers.settings.SMS_GATEWAY_SECRET,
    WECHATPAY_NOTIFY_URL: `${origin}/api/commerce/v1/notify/wechatpay`,
    ALIPAY_NOTIFY_URL: `${origin}/api/commerce/v1/notify/alipay`,
    STORE_URL: `${origin}/store`,
    STORE_INTROSPECTION_SECRET: 'deployment-test-store-introspection-secret',
    // The providers' doubles listen on loopback, which production calls only when named here.
    OUTBOUND_ALLOWED_NETWORKS: '127.0.0.1',
  };
  const unit = readUnit(path.join(deployDir, 'systemd/beacon-api@.service'));

  const instance = async (name: string): Promise<Instance> => {
    const port = await freePort();
    const dataDir = path.join(work, `data-${name}`);
    let child: ChildProcess | null = null;
    const log = createWriteStream(path.join(work, `instance-${name}.log`), { flags: 'a' });
    return {
      name,
      port,
      address: `127.0.0.1:${port}`,
      dataDir,
      async start(changes = {}) {
        const [command, ...args] = unit.execStart.map(here);
        const settings = {
          PATH: systemdPath,
          ...environment,
          DATA_DIR: dataDir,
          ...Object.fromEntries(Object.entries(unit.environment).map(([key, value]) => [key, value.replace('%i', String(port))])),
          ...changes,
        };
        const env = Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, string] => entry[1] !== null));
        child = spawn(command, args, { cwd: here(unit.workingDirectory), env, stdio: ['ignore', 'pipe', 'pipe'] });
        child.stdout!.pipe(log, { end: false });
        child.stderr!.pipe(log, { end: false });
        await waitFor(`http://127.0.0.1:${port}/api/ready`, child, `instance ${name}`);
      },
      async stop(signal) {
        if (!child) return null;
        const ended = exited(child);
        child.kill(signal);
        const code = await ended;
        child = null;
        return code;
      },
      freeze(frozen) {
        child?.kill(frozen ? 'SIGSTOP' : 'SIGCONT');
      },
      running: () => child !== null && child.exitCode === null && child.signalCode === null,
    };
  };
  const instances: [Instance, Instance] = [await instance('A'), await instance('B')];
  started.add(instances, async (all) => {
    for (const each of all) await each.stop('SIGTERM');
  });
  // One after the other, as a deployment's first start migrates the database once.
  for (const each of instances) await each.start();

  // nginx's own configuration file names this machine's folders and ports and includes deploy/nginx as it is.
  const nginxDir = path.join(work, 'nginx');
  nginxFolder(
    nginxDir,
    siteOnPort({
      folder: nginxDir,
      port: nginxPort,
      dist: path.join(release, 'dist'),
      logFormat: '$remote_addr "$request_method $beacon_logged_uri" $status upstream=$upstream_addr id=$request_id',
      brotli: true,
    }),
  );
  const upstreamFile = path.join(nginxDir, 'upstream.conf');
  writeFileSync(
    upstreamFile,
    readFileSync(path.join(deployDir, 'nginx/upstream.conf'), 'utf8')
      .replace('127.0.0.1:4001', instances[0].address)
      .replace('127.0.0.1:4002', instances[1].address),
  );
  const nginx = started.add(
    spawn(nginxBinary, ['-p', nginxDir, '-c', path.join(nginxDir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] }),
    async (child) => {
      // Fast shutdown: a graceful one would wait for every hub client's open connection.
      child.kill('SIGTERM');
      await exited(child);
    },
  );
  await waitFor(`${origin}/api/health`, nginx, 'nginx');

  const accessLog = () => readFileSync(path.join(nginxDir, 'access.log'), 'utf8').trim().split('\n');
  // The operators' command on instance A's host, in its release.
  const adminEnv = { PATH: systemdPath, ...environment, DATA_DIR: instances[0].dataDir, LOG_LEVEL: 'warn' };
  return {
    origin,
    instances,
    postgres,
    redis,
    servedBy(pattern) {
      const line = accessLog().findLast((entry) => pattern.test(entry));
      // Every instance nginx tried (`127.0.0.1:4001, 127.0.0.1:4002`): the last one answered.
      const upstreamAddress = /upstream=(.*) id=/
        .exec(line ?? '')?.[1]
        .split(', ')
        .at(-1);
      return instances.find((each) => each.address === upstreamAddress);
    },
    async textsTo(phone) {
      const answer = await fetch(`${providers.smsGateway}/messages?to=${encodeURIComponent(phone)}`);
      return ((await answer.json()) as Array<{ text: string }>).map((message) => message.text);
    },
    async pay(orderNumber) {
      await sandboxAct(`wechatpay/sandbox/${orderNumber}`, 'approve');
    },
    async payWithAlipay(orderNumber) {
      // An Alipay code is a trade at Alipay once a phone has scanned it.
      await sandboxAct(`alipay/sandbox/${orderNumber}`, 'scan');
      await sandboxAct(`alipay/sandbox/${orderNumber}`, 'approve');
    },
    async providerFaults(faults) {
      const answer = await fetch(`${providers.control}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(faults),
      });
      if (!answer.ok) throw new Error(`the providers refused the faults ${JSON.stringify(faults)}: HTTP ${answer.status}`);
    },
    bucketSettings: bucket.settings,
    admin(...words) {
      return execFileSync(path.join(release, 'node_modules/.bin/node'), ['server/cli/admin.ts', ...words], { cwd: release, env: adminEnv, encoding: 'utf8' });
    },
    async setDown(instance, down) {
      const line = new RegExp(`(server ${instance.address.replaceAll('.', '\\.')} [^;]*?)( down)?;`);
      writeFileSync(upstreamFile, readFileSync(upstreamFile, 'utf8').replace(line, down ? '$1 down;' : '$1;'));
      await reloadNginx(nginx.pid!, nginxDir);
    },
    close: () => started.stopAll(),
  };
}
