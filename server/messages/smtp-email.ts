/**
 * E-mail over SMTP (`EMAIL_PROVIDER=smtp`), through nodemailer: one pool of connections to the server SMTP_URL names,
 * `smtps://` with TLS from the start or `smtp://` with STARTTLS — which production requires, so a code is never sent
 * in clear, and which a development mail catcher may go without — the server's certificate always checked
 * (NODE_EXTRA_CA_CERTS adds a private CA's). Each e-mail is From EMAIL_FROM, signed with DKIM when the DKIM_*
 * settings are given, and has a plain-text and an HTML part (email-html.ts) in the message's language. A send is given
 * up after PROVIDER_TIMEOUT_MS, connecting included.
 *
 * The server's refusals are answered by why: a recipient it refuses for good (5xx to RCPT TO) is `recipientInvalid`;
 * wrong credentials (535), a sender or message it refuses for good, relaying denied, no STARTTLS or a certificate that
 * does not check out are the operators' to mend (`unavailable`, with the reply code as providerCode); no answer, a
 * timeout, a dropped connection or a temporary refusal (4xx) is `unreachable`. Each refusal's message holds the
 * e-mail's Message-ID and the server's reply (with its queue id when it gave one), so the logs of plugins/messengers.ts
 * and plugins/errors.ts, which write it, find the e-mail in the mail server's own.
 */
import { createPrivateKey, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import nodemailer, { type NodemailerError } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import { ConfigError, sitePageUrl, type Config } from '../config.ts';
import { emailHtml } from './email-html.ts';
import { MessengerError, type Messenger, type Refusal } from './messenger.ts';
import { emailText } from './render.ts';

/** The DKIM private key, read once at the start: a file that cannot be read or holds no private key stops it. */
function dkimKey(file: string): string {
  let pem: string;
  try {
    pem = readFileSync(file, 'utf8');
  } catch (error) {
    throw new ConfigError(`DKIM_PRIVATE_KEY_FILE=${file} cannot be read: ${(error as Error).message}`);
  }
  try {
    createPrivateKey(pem);
  } catch {
    throw new ConfigError(`DKIM_PRIVATE_KEY_FILE=${file} holds no private key: it must be the PEM file of the key whose public half DKIM_SELECTOR publishes`);
  }
  return pem;
}

/** The domain of the address in EMAIL_FROM (`Beacon Toolkit <no-reply@example.com>`), which names the Message-IDs. */
function fromDomain(from: string): string {
  const [first] = addressparser(from, { flatten: true });
  const domain = first?.address?.split('@')[1];
  if (!domain) throw new ConfigError(`EMAIL_FROM must hold an address, as in "Beacon Toolkit <no-reply@example.com>" (got "${from}")`);
  return domain;
}

/** The enhanced status code (RFC 3463) a reply gives after its code: `5.1.1`, `5.7.8`. */
const enhancedStatus = (response: string | undefined) => /^\d{3}[ -](\d\.\d{1,3}\.\d{1,3})\b/.exec(response ?? '')?.[1];

/** A failure of TLS itself: no STARTTLS where production requires it, a certificate that does not check out, TLS to a port that speaks none. */
const tlsFailure = (error: NodemailerError) => error.code === 'ETLS' || /CERT|^ERR_(SSL|TLS)_/.test(error.originalCode ?? '');

/** Why nodemailer's `error` means the message was not sent, and the code an operator looks up. */
function refusalOf(error: NodemailerError): { refusal: Refusal; providerCode: string } {
  // Sending in clear, or to whoever answers, is no way out: the operators mend the server or its address.
  if (tlsFailure(error)) return { refusal: 'unavailable', providerCode: error.originalCode ?? 'ETLS' };
  // All the recipients were refused: the one the message was for.
  const reply = error.code === 'EENVELOPE' && error.rejectedErrors?.length ? error.rejectedErrors[0] : error;
  const status = reply.responseCode;
  if (status) {
    const enhanced = enhancedStatus(reply.response);
    const providerCode = enhanced ? `${status} ${enhanced}` : String(status);
    // 4xx (and 503, a command out of turn) may pass on another try; x.7.x is a refusal of policy (relaying denied, a sender not allowed).
    if (!reply.permanent) return { refusal: 'unreachable', providerCode };
    const recipient = reply.command?.startsWith('RCPT') && !enhanced?.startsWith('5.7');
    return { refusal: recipient ? 'recipientInvalid' : 'unavailable', providerCode };
  }
  if (error.code === 'EAUTH' || error.code === 'ENOAUTH') return { refusal: 'unavailable', providerCode: error.code };
  // Our deadline (EABORT), a connection refused, reset or timed out.
  return { refusal: 'unreachable', providerCode: error.code === 'EABORT' ? 'ETIMEDOUT' : (error.originalCode ?? error.code ?? 'ECONNECTION') };
}

/** What the server said, or why it said nothing. */
function said(error: NodemailerError, timeoutMs: number): string {
  if (error.code === 'EABORT') return `no answer within ${timeoutMs} ms`;
  return tlsFailure(error) ? error.message : (error.response ?? error.message);
}

/** The messenger that sends e-mail through the SMTP server SMTP_URL names. */
export function smtpEmailMessenger(config: Config): Messenger {
  const url = new URL(config.SMTP_URL!);
  if (url.search) throw new ConfigError('SMTP_URL takes no options after "?": the server, its port, the user and the password are all it says');
  const from = config.EMAIL_FROM!;
  const idDomain = fromDomain(from);
  const timeoutMs = config.PROVIDER_TIMEOUT_MS;
  const secure = url.protocol === 'smtps:';
  const port = url.port ? Number(url.port) : secure ? 465 : 587;
  const transport = nodemailer.createTransport({
    pool: true,
    host: url.hostname.replace(/^\[(.*)\]$/, '$1'),
    port,
    secure,
    requireTLS: !secure && config.NODE_ENV === 'production',
    auth: url.username ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } : undefined,
    connectionTimeout: timeoutMs,
    greetingTimeout: timeoutMs,
    socketTimeout: timeoutMs,
    dkim:
      config.DKIM_DOMAIN && config.DKIM_SELECTOR && config.DKIM_PRIVATE_KEY_FILE
        ? { domainName: config.DKIM_DOMAIN, keySelector: config.DKIM_SELECTOR, privateKey: dkimKey(config.DKIM_PRIVATE_KEY_FILE) }
        : undefined,
  });
  const server = `${url.hostname}:${port}`;

  return {
    provider: 'smtp',
    async send(message) {
      const messageId = `<${randomUUID()}@${idDomain}>`;
      try {
        await transport.sendMail({
          from,
          to: message.to,
          messageId,
          ...emailText(message),
          html: emailHtml(message, sitePageUrl(config, message.locale, '/')),
          signal: AbortSignal.timeout(timeoutMs),
        });
        return { id: messageId };
      } catch (error) {
        const failure = error as NodemailerError;
        const why = said(failure, timeoutMs);
        throw new MessengerError('email', message.to, `SMTP server ${server} did not take e-mail ${messageId}: ${why}`, {
          ...refusalOf(failure),
          cause: error,
        });
      }
    },
    async close() {
      transport.close();
    },
  };
}
