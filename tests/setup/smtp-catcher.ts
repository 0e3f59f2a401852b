/**
 * A real SMTP server for tests (smtp-server, which we did not write), on a free loopback port, that keeps every
 * message it is given as `mailparser` reads it: the envelope, the parts, the headers, whether it came over TLS.
 * It offers STARTTLS with a self-signed certificate made here for 127.0.0.1 and localhost, and takes AUTH with one
 * user and password only (535 for any other); it can refuse a recipient (550, or any reply) or stop answering.
 *
 * `settings` are what a server needs to send its e-mail here (EMAIL_PROVIDER=smtp, SMTP_URL, EMAIL_FROM) and, for a
 * server in a child process (a release the production test starts), NODE_EXTRA_CA_CERTS naming the certificate's
 * file, which Node reads only as a process starts. A server in this process (startApp) trusts the certificate once
 * `trust()` is called. Either way it sends as production does: over STARTTLS, the certificate checked.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getCACertificates, setDefaultCACertificates } from 'node:tls';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer } from 'smtp-server';

export interface SmtpCatcherOptions {
  /** Offer STARTTLS (the default); false: the server speaks only in clear, as a production sender must refuse. */
  starttls?: boolean;
  /** The only user and password AUTH takes (made up here when not given). */
  user?: string;
  password?: string;
}

/** A message as the catcher took it. The product sends each e-mail to one person. */
export interface CaughtMail {
  /** The envelope's sender (MAIL FROM) and recipient (RCPT TO). */
  from: string;
  to: string;
  subject: string;
  /** The plain-text and the HTML part. */
  text: string;
  html: string;
  /** Whether it came over TLS (STARTTLS). */
  secure: boolean;
  /** The message as the sender wrote it, headers and all (to check a DKIM signature against). */
  raw: Buffer;
  /** All of it as mailparser reads it. */
  parsed: ParsedMail;
}

export interface SmtpCatcher {
  /** `smtp://user:password@127.0.0.1:port`: the SMTP_URL of a server that sends through this catcher. */
  url: string;
  /** EMAIL_PROVIDER, SMTP_URL, EMAIL_FROM and NODE_EXTRA_CA_CERTS of a server that sends its e-mail here. */
  settings: Record<string, string>;
  /** The From of the e-mails the settings make: `Beacon Toolkit <no-reply@beacon.test>`. */
  from: string;
  port: number;
  /** Its certificate (PEM), and the file that holds it, for NODE_EXTRA_CA_CERTS. */
  ca: string;
  caFile: string;
  /** Every message taken, oldest first. */
  received: CaughtMail[];
  /** The messages to `address`. */
  to(address: string): CaughtMail[];
  /** The `count`-th message for `address` (the first by default), as soon as it is taken; fails after `timeoutMs` (5 s). */
  waitFor(address: string, options?: { count?: number; timeoutMs?: number }): Promise<CaughtMail>;
  /** RCPT TO `address` is refused from now on with `reply`: by default `550 5.1.1 … User unknown`; `450 4.2.1 Mailbox busy` is a temporary one. */
  rejectRecipient(address: string, reply?: string): void;
  /** While on, a new connection gets no greeting and MAIL FROM no answer (a server that hangs). */
  stall(on: boolean): void;
  /** This process trusts the certificate from now on (as NODE_EXTRA_CA_CERTS would at its start). */
  trust(): void;
  close(): Promise<void>;
}

/** A self-signed certificate for 127.0.0.1 and localhost, made by openssl in `directory`. */
function selfSignedCertificate(directory: string): { key: string; cert: string; certFile: string } {
  const keyFile = path.join(directory, 'key.pem');
  const certFile = path.join(directory, 'cert.pem');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '2',
    '-subj', '/CN=SMTP catcher', '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost', '-keyout', keyFile, '-out', certFile,
  ], { stdio: 'ignore' }); // prettier-ignore
  return { key: readFileSync(keyFile, 'utf8'), cert: readFileSync(certFile, 'utf8'), certFile };
}

/** Starts a catcher on 127.0.0.1 (see the top of this file). */
export async function startSmtpCatcher(options: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const user = options.user ?? 'beacon';
  const password = options.password ?? 'catcher-password';
  const directory = mkdtempSync(path.join(tmpdir(), 'beacon-smtp-'));
  const { key, cert, certFile } = selfSignedCertificate(directory);
  const received: CaughtMail[] = [];
  const rejected = new Map<string, string>();
  const waiting = new Set<() => void>();
  let stalled = false;

  const refusal = (responseCode: number, text: string) => Object.assign(new Error(text), { responseCode });
  const server = new SMTPServer({
    key,
    cert,
    hideSTARTTLS: options.starttls === false,
    disabledCommands: options.starttls === false ? ['STARTTLS'] : [],
    // Without STARTTLS, AUTH goes in clear: what a development mail catcher takes.
    allowInsecureAuth: options.starttls === false,
    disableReverseLookup: true,
    logger: false,
    closeTimeout: 200,
    onConnect: (_session, callback) => void (stalled || callback()),
    onAuth: (auth, _session, callback) =>
      auth.username === user && auth.password === password ? callback(null, { user }) : callback(refusal(535, '5.7.8 Authentication credentials invalid')),
    onMailFrom: (_address, _session, callback) => void (stalled || callback()),
    onRcptTo(address, _session, callback) {
      const reply = rejected.get(address.address.toLowerCase());
      if (!reply) return callback();
      const [, code, text] = /^(\d{3}) (.*)$/.exec(reply)!;
      callback(refusal(Number(code), text));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', async () => {
        const raw = Buffer.concat(chunks);
        const parsed = await simpleParser(raw);
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((each) => each.address.toLowerCase()).join(', '),
          subject: parsed.subject ?? '',
          text: parsed.text ?? '',
          html: parsed.html || '',
          secure: session.secure,
          raw,
          parsed,
        });
        for (const wake of waiting) wake();
        callback(null, `2.0.0 Ok: queued as Q${received.length}`);
      });
    },
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  const to = (address: string) => received.filter((each) => each.to === address.toLowerCase());
  const url = `smtp://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  const from = 'Beacon Toolkit <no-reply@beacon.test>';

  return {
    url,
    settings: { EMAIL_PROVIDER: 'smtp', SMTP_URL: url, EMAIL_FROM: from, NODE_EXTRA_CA_CERTS: certFile },
    from,
    port,
    ca: cert,
    caFile: certFile,
    received,
    to,
    waitFor(address, { count = 1, timeoutMs = 5_000 } = {}) {
      return new Promise((resolve, reject) => {
        const check = () => {
          const found = to(address)[count - 1];
          if (!found) return;
          waiting.delete(check);
          clearTimeout(timer);
          resolve(found);
        };
        const timer = setTimeout(() => {
          waiting.delete(check);
          reject(new Error(`message ${count} for ${address} did not come within ${timeoutMs} ms`));
        }, timeoutMs);
        waiting.add(check);
        check();
      });
    },
    rejectRecipient: (address, reply = `550 5.1.1 <${address}>: Recipient address rejected: User unknown`) => void rejected.set(address.toLowerCase(), reply),
    stall: (on) => void (stalled = on),
    trust: () => setDefaultCACertificates([...getCACertificates('default'), cert]),
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(directory, { recursive: true, force: true });
    },
  };
}
