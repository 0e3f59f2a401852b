/**
 * Protection for everything the server answers: security headers (HSTS,
 * frame-ancestors, referrer policy, no sniffing; HTML pages get their own
 * script-hash CSP from the site plugin), and, for the API, CORS with
 * credentials for configured origins plus a per-address rate limit.
 */
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import type { FastifyInstance } from 'fastify';
import { consoleCsrfHeader } from '#contract/console.ts';
import { encryption } from '#contract/crypto.ts';
import { addressGroup } from '../http/address-group.ts';
import { tooManyRequests } from '../http/api-error.ts';
import { redisOrMemoryStore } from '../http/rate-limit-store.ts';
import { inlineScriptHashes } from '../site/csp.ts';

export async function securityHeaders(app: FastifyInstance): Promise<void> {
  await app.register(helmet, {
    // HTML pages get their policy from the site plugin, API answers theirs below. Static scripts
    // must have none: a worker script's policy would bind the worker (Pagefind's fetches its index).
    contentSecurityPolicy: false,
    crossOriginEmbedderPolicy: false,
    crossOriginResourcePolicy: { policy: 'same-site' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // Sent below, over HTTPS only: a browser ignores it on plain http (RFC 6797 §8.1), and it would wrongly
    // promise HTTPS for a host served without it.
    strictTransportSecurity: false,
  });
  // Behind a proxy (TRUST_PROXY), the request's protocol is the forwarded one.
  app.addHook('onRequest', async (request, reply) => {
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000; includeSubDomains');
  });
}

/** With Redis (several instances), the rate limits count across all of them (in each one's memory while Redis is away). */
export async function apiProtection(api: FastifyInstance): Promise<void> {
  const { config, redis } = api;
  // The API answers only data: nothing may run in or frame it.
  api.addHook('onRequest', async (_request, reply) => {
    reply.header('content-security-policy', "default-src 'none'; frame-ancestors 'none'");
  });
  await api.register(cors, {
    origin: config.CORS_ORIGINS,
    credentials: true,
    methods: ['GET', 'POST', 'DELETE'],
    // The realtime client adds the last two to every request (dotnet/aspnetcore#4457).
    allowedHeaders: ['authorization', 'content-type', 'accept-language', encryption.keyHeader, consoleCsrfHeader, 'x-requested-with', 'x-signalr-user-agent'],
    // A limit's answer says when to try again; a page on another origin may read that.
    exposedHeaders: ['retry-after'],
    maxAge: 600,
  });
  await api.register(rateLimit, {
    max: config.RATE_LIMIT_PER_MINUTE,
    timeWindow: 60_000,
    // Requests count against their client's address group (IPv6 by its /64).
    keyGenerator: (request) => addressGroup(request.ip),
    ...(redis ? { store: redisOrMemoryStore(redis, 'beacon-rate-limit:') } : {}),
    // A route with a limit of its own (logins, code sends…) has `rateLimit` in its config.
    errorResponseBuilder: (request) => tooManyRequests(request.routeOptions.config.rateLimit ? 'route' : 'global'),
  });
}

/**
 * The one HTML page under the API, its reference (plugins/openapi.ts), instead of the API's "nothing runs": its renderer's
 * script and stylesheet from this origin, its one inline script by hash, the document fetched from here; nothing else.
 */
export function referencePagePolicy(html: string): string {
  return [
    "default-src 'none'",
    `script-src 'self' ${inlineScriptHashes(html).join(' ')}`,
    "style-src 'self'",
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "form-action 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
}
