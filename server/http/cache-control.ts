/** Cache-Control for an answer kept `ms` long: public ones by any cache, a caller's own only by their browser. */
import type { FastifyReply } from 'fastify';

const seconds = (ms: number) => Math.round(ms / 1000);

export const publicFor = (ms: number) => `public, max-age=${seconds(ms)}`;

/**
 * Keeps a caller's own answer `ms` long in their browser only, and varies it
 * with the token, so the browser never hands one login's answer to the next
 * login in it.
 */
export function cacheForCaller(reply: FastifyReply, ms: number): void {
  reply.header('cache-control', `private, max-age=${seconds(ms)}`);
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${String(vary)}, Authorization` : 'Authorization');
}
