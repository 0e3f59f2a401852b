/**
 * The reference deployment's edges, as an attacker meets them: nginx with
 * deploy/nginx/beacon.conf as it is (its certificate a self-signed one for the
 * site's name, its ports free ones) speaks TLS 1.2 and 1.3 with forward-secret
 * ciphers only, and answers nothing to a Host name that is not the site's —
 * checked with `openssl s_client` and raw requests; and the systemd unit's
 * sandbox scores OK in `systemd-analyze security`.
 */
import { expect, test } from '@playwright/test';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { connect as netConnect } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { connect as tlsConnect } from 'node:tls';
import { freePort } from '../setup/free-port.ts';
import { nginxBinary, nginxFolder } from './deployment.ts';

const root = path.resolve(import.meta.dirname, '../..');
const siteName = 'beacontoolkit.net';
const work = mkdtempSync(path.join(tmpdir(), 'beacon-hardening-'));

/** Replaces `from` in `text`, which must hold it: a configuration that drifted from what the test expects fails here, not silently. */
function replaced(text: string, from: string | RegExp, to: string): string {
  const found = typeof from === 'string' ? text.includes(from) : from.test(text);
  if (!found) throw new Error(`beacon.conf no longer holds ${String(from)}`);
  return text.replaceAll(from, to);
}

test.describe('nginx, as deploy/nginx/beacon.conf sets it up', () => {
  let nginx: ChildProcess;
  let httpPort: number;
  let httpsPort: number;

  test.beforeAll(async () => {
    test.setTimeout(300_000);
    httpPort = await freePort();
    httpsPort = await freePort();
    const prefix = path.join(work, 'nginx');
    const cert = path.join(work, 'cert.pem');
    const key = path.join(work, 'key.pem');
    execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '2', '-subj', `/CN=${siteName}`, '-keyout', key, '-out', cert], {
      stdio: 'ignore',
    });
    let site = readFileSync(path.join(root, 'deploy/nginx/beacon.conf'), 'utf8');
    site = replaced(site, '/srv/beacon', root);
    site = replaced(site, `/etc/letsencrypt/live/${siteName}/fullchain.pem`, cert);
    site = replaced(site, `/etc/letsencrypt/live/${siteName}/privkey.pem`, key);
    site = replaced(site, '/var/log/nginx/beacon.access.log', path.join(work, 'access.log'));
    site = replaced(site, /^\s*listen \[::\]:.*$/gm, '');
    site = replaced(site, /listen 80\b/g, `listen 127.0.0.1:${httpPort}`);
    site = replaced(site, /listen 443\b/g, `listen 127.0.0.1:${httpsPort}`);
    nginxFolder(prefix, site);
    nginx = spawn(nginxBinary, ['-p', prefix, '-c', path.join(prefix, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'inherit', 'inherit'] });
    // Listening once a TLS handshake for the site's name goes through.
    for (;;) {
      if (nginx.exitCode !== null) throw new Error('nginx ended while starting (see its output above)');
      if (handshake(['-servername', siteName]).ok) break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  });
  test.afterAll(() => {
    nginx?.kill();
  });

  /** A TLS handshake by `openssl s_client` (an implementation not ours) with these options: whether it was established, and what it printed. */
  function handshake(options: string[]): { ok: boolean; output: string } {
    const run = spawnSync('openssl', ['s_client', '-brief', '-connect', `127.0.0.1:${httpsPort}`, ...options], {
      input: '',
      encoding: 'utf8',
      timeout: 10_000,
    });
    const output = `${run.stdout}${run.stderr}`;
    return { ok: output.includes('CONNECTION ESTABLISHED'), output };
  }

  test('speaks TLS 1.2 and 1.3 with forward-secret AEAD ciphers, and nothing older or weaker', () => {
    expect(handshake(['-servername', siteName, '-tls1_3']).output).toMatch(/Protocol version: TLSv1\.3\nCiphersuite: TLS_(AES_\d+_GCM|CHACHA20_POLY1305)_SHA/);
    expect(handshake(['-servername', siteName, '-tls1_2']).output).toMatch(/Protocol version: TLSv1\.2\nCiphersuite: ECDHE-RSA-(AES\d+-GCM|CHACHA20)/);
    // The client is made willing (security level 0), so a refusal is the server's.
    for (const old of ['-tls1', '-tls1_1']) expect(handshake(['-servername', siteName, old, '-cipher', 'DEFAULT@SECLEVEL=0']).ok, old).toBe(false);
    // No key exchange without forward secrecy, no CBC, no SHA-1 MAC.
    for (const weak of ['AES128-SHA', 'AES256-GCM-SHA384', 'ECDHE-RSA-AES128-SHA', 'ECDHE-RSA-AES256-SHA384'])
      expect(handshake(['-servername', siteName, '-tls1_2', '-cipher', weak]).ok, weak).toBe(false);
  });

  test('refuses a TLS handshake for another name, or none', () => {
    expect(handshake(['-servername', 'attacker.example']).ok).toBe(false);
    expect(handshake(['-noservername']).ok).toBe(false);
  });

  /** The raw answer to one HTTP/1.1 request: its status line, or '' when nginx closed the connection without one. */
  function statusLine(secure: boolean, host: string): Promise<string> {
    return new Promise((resolve, reject) => {
      const socket = secure
        ? tlsConnect({ host: '127.0.0.1', port: httpsPort, servername: siteName, rejectUnauthorized: false })
        : netConnect({ host: '127.0.0.1', port: httpPort });
      let answer = '';
      socket.on(secure ? 'secureConnect' : 'connect', () => socket.write(`GET / HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`));
      socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
      socket.on('end', () => resolve(answer.split('\r\n')[0]));
      socket.on('error', reject);
    });
  }

  test('answers nothing to another Host name, over HTTP or inside the site’s own TLS', async () => {
    expect(await statusLine(false, siteName)).toBe('HTTP/1.1 301 Moved Permanently');
    expect(await statusLine(false, 'attacker.example')).toBe('');
    expect(await statusLine(false, '127.0.0.1')).toBe('');
    expect(await statusLine(true, siteName)).toBe('HTTP/1.1 200 OK');
    expect(await statusLine(true, 'attacker.example')).toBe('');
  });

  test('sends the site’s own name in its redirect to HTTPS, never the Host a request gave', async () => {
    const location = await new Promise<string | undefined>((resolve, reject) => {
      const request = httpRequest({ host: '127.0.0.1', port: httpPort, path: '/download', headers: { host: siteName } }, (response) => {
        response.resume();
        resolve(response.headers.location);
      });
      request.on('error', reject);
      request.end();
    });
    expect(location).toBe(`https://${siteName}/download`);
  });
});

test.describe('the API instances’ systemd unit', () => {
  test('scores OK in systemd-analyze security, with a memory limit', () => {
    if (!existsSync('/usr/bin/systemd-analyze')) {
      if (process.getuid?.() !== 0) throw new Error('systemd-analyze is missing. Install the Debian package with: sudo apt-get install systemd');
      execFileSync('apt-get', ['install', '-y', '-qq', '--no-install-recommends', 'systemd'], {
        stdio: 'inherit',
        env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
      });
    }
    const unit = path.join(work, 'beacon-api@4001.service');
    copyFileSync(path.join(root, 'deploy/systemd/beacon-api@.service'), unit);
    const text = readFileSync(unit, 'utf8');
    expect(text).toMatch(/^MemoryMax=\d+[KMG]$/m);
    const report = spawnSync('systemd-analyze', ['security', '--offline=true', '--no-pager', unit], { encoding: 'utf8' }).stdout;
    const exposure = Number(/Overall exposure level for .*: ([\d.]+)/.exec(report)?.[1]);
    console.log(`  · systemd-analyze security: exposure ${exposure}`);
    expect(exposure).toBeLessThanOrEqual(2);
  });
});
