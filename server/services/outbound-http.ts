/**
 * The one way the server calls out over HTTP: identity providers (Steam's
 * OpenID, Microsoft's OpenID Connect, QQ), the Steam Web API, the SMS and
 * e-mail gateways, WeChat Pay. Every call has one deadline for its whole
 * answer (headers and body), a cap on the answer's size (reading stops past
 * it), and follows no redirect. In production it reaches public addresses
 * only — no loopback, private, link-local, unique-local, CGNAT, multicast or
 * reserved one — unless OUTBOUND_ALLOWED_NETWORKS names the network or host.
 * The address is checked when the connection is made, on the very DNS answer
 * the connection uses, so a name that answers differently the second time
 * (DNS rebinding) cannot slip past.
 */
import { lookup, type LookupAddress, type LookupOptions } from 'node:dns';
import { isIP } from 'node:net';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';
import { devStandInsAllowed, type Config } from '../config.ts';

export interface OutboundSettings {
  /** The whole call, from connecting to the answer's last byte. */
  timeoutMs: number;
  /** The most an answer's body may hold. */
  maxBytes: number;
  /** Whether only public addresses may be called (production). */
  publicOnly: boolean;
  /** Networks (CIDR or one address) and host names called even when they are not public. */
  allowed: readonly string[];
}

/** A call the client refused or cut short: an address it may not reach, a redirect, an answer too large or too slow. */
export class OutboundError extends Error {}

/** fetch's options, and a deadline of the call's own: shorter than OUTBOUND_TIMEOUT_MS for a call a customer waits on (a longer one is cut to it). */
export interface OutboundInit extends RequestInit {
  timeoutMs?: number;
}

/** `fetch` as the server may use it for outside services; the answer comes whole (its body already read). */
export type OutboundFetch = (url: string | URL, init?: OutboundInit) => Promise<Response>;

export interface OutboundHttp {
  fetch: OutboundFetch;
  /** Closes the kept-alive connections. */
  close(): Promise<void>;
}

/** The settings from the configuration: OUTBOUND_*, and public addresses only in production. */
export const outboundSettings = (config: Config): OutboundSettings => ({
  timeoutMs: config.OUTBOUND_TIMEOUT_MS,
  maxBytes: config.OUTBOUND_MAX_BYTES,
  publicOnly: !devStandInsAllowed(config),
  allowed: config.OUTBOUND_ALLOWED_NETWORKS,
});

const unbracketed = (host: string) => host.replace(/^\[(.*)\]$/, '$1');

// Global unicast IPv6 (2000::/3): outside it, even an address ipaddr.js calls unicast (`::7f00:1`) is not a public one.
const globalUnicast = ipaddr.parseCIDR('2000::/3');
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/** Answers whether `host` may be reached at `address`. */
function addressPolicy(settings: OutboundSettings): (host: string, address: string) => boolean {
  const networks: Array<[ipaddr.IPv4 | ipaddr.IPv6, number]> = [];
  const hosts = new Set<string>();
  for (const entry of settings.allowed) {
    const bare = unbracketed(entry);
    if (ipaddr.isValidCIDR(bare)) networks.push(ipaddr.parseCIDR(bare));
    else if (ipaddr.isValid(bare)) {
      const address = ipaddr.process(bare);
      networks.push([address, address.kind() === 'ipv4' ? 32 : 128]);
    } else hosts.add(entry.toLowerCase());
  }
  return (host, address) => {
    if (!settings.publicOnly || hosts.has(host.toLowerCase())) return true;
    // IPv4-mapped IPv6 addresses (::ffff:127.0.0.1) are judged as the IPv4 address they are.
    const ip = ipaddr.process(address);
    if (networks.some(([network, bits]) => network.kind() === ip.kind() && ip.match(network, bits))) return true;
    return ip.range() === 'unicast' && (ip.kind() === 'ipv4' || ip.match(globalUnicast));
  };
}

const refusal = (host: string, address: string) =>
  new OutboundError(`${host} is at ${address}, which is not a public address (OUTBOUND_ALLOWED_NETWORKS can name it)`);

/** The answer's body, read up to `maxBytes` and no further. */
async function readCapped(response: Awaited<ReturnType<typeof undiciFetch>>, maxBytes: number, origin: string): Promise<Buffer<ArrayBuffer> | null> {
  if (!response.body) return null;
  const tooLarge = () => new OutboundError(`${origin} answered more than ${maxBytes} bytes (OUTBOUND_MAX_BYTES)`);
  if (Number(response.headers.get('content-length')) > maxBytes) {
    await response.body.cancel();
    throw tooLarge();
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  // Leaving the loop by a throw cancels the stream, which closes the connection: nothing more is read.
  for await (const chunk of response.body) {
    size += chunk.byteLength;
    if (size > maxBytes) throw tooLarge();
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** The server's outbound HTTP client, with these settings. */
export function outboundHttp(settings: OutboundSettings): OutboundHttp {
  const permitted = addressPolicy(settings);

  function guardedLookup(
    hostname: string,
    options: LookupOptions,
    callback: (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ): void {
    lookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const refused = addresses.find((answer) => !permitted(hostname, answer.address));
      if (refused) return callback(refusal(hostname, refused.address), []);
      if (options.all) callback(null, addresses);
      else callback(null, addresses[0].address, addresses[0].family);
    });
  }

  const agent = new Agent({ connect: { lookup: guardedLookup } });

  async function fetch(input: string | URL, { timeoutMs: ownTimeoutMs, ...init }: OutboundInit = {}): Promise<Response> {
    const url = new URL(input);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new OutboundError(`${url.protocol} is not HTTP`);
    // A literal address is connected to without a lookup: it is checked here.
    const host = unbracketed(url.hostname);
    if (isIP(host) && !permitted(host, host)) throw refusal(host, host);

    const timeoutMs = Math.min(ownTimeoutMs ?? settings.timeoutMs, settings.timeoutMs);
    const deadline = AbortSignal.timeout(timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, deadline]) : deadline;
    try {
      const response = await undiciFetch(url, { ...(init as UndiciRequestInit), redirect: 'manual', signal, dispatcher: agent });
      const location = response.headers.get('location');
      if (response.status >= 300 && response.status < 400 && location) {
        await response.body?.cancel();
        throw new OutboundError(`${url.origin} answered a redirect to ${location}, which is not followed`);
      }
      const body = await readCapped(response, settings.maxBytes, url.origin);
      // The body is handed on decoded, whole: its encoding and length headers no longer describe it.
      const headers = new Headers();
      for (const [name, value] of response.headers) if (name !== 'content-encoding' && name !== 'content-length') headers.append(name, value);
      return new Response(nullBodyStatuses.has(response.status) ? null : body, { status: response.status, statusText: response.statusText, headers });
    } catch (error) {
      if (error instanceof OutboundError) throw error;
      if (deadline.aborted) throw new OutboundError(`${url.origin} did not answer within ${timeoutMs} ms`, { cause: error });
      // fetch wraps what failed the connection (a refused address among them) as its cause.
      const cause = (error as { cause?: unknown }).cause;
      if (cause instanceof OutboundError) throw cause;
      throw error;
    }
  }

  return { fetch, close: () => agent.close() };
}
