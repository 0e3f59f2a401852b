/**
 * What a client's requests count against: its address, an IPv6 address by its
 * /64 (one customer's network, in which a client picks any address it likes),
 * grouped as @fastify/rate-limit groups them, so the rate limits and the limits
 * of our own (codes per address) count the same thing.
 */
import { normalizeIP } from '@fastify/rate-limit';

/**
 * The group of `ip`. A client whose connection reset before its request was
 * handled has no address left: those share one group rather than fail.
 */
export const addressGroup = (ip: string | undefined): string => (ip ? normalizeIP(ip) : 'address-gone');
