/**
 * Who may call the admin endpoint: a process on this machine that can read the
 * token the server wrote to `<DATA_DIR>/admin.json` (owner-only). Anyone else
 * is told the path does not exist.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { adminTokenHeader } from '#contract/admin.ts';

export const newAdminToken = (): string => randomBytes(32).toString('base64url');

const loopback = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/** Hashing first gives equal lengths, so the comparison does not leak the token's length either. */
const digest = (value: string) => createHash('sha256').update(value).digest();

export function isAdminCaller(request: FastifyRequest, token: string): boolean {
  // A reverse proxy on this machine connects from loopback on behalf of remote clients; its forwarded requests are never local.
  const forwarded = request.headers['x-forwarded-for'] !== undefined || request.headers.forwarded !== undefined;
  const given = request.headers[adminTokenHeader];
  return !forwarded && loopback.has(request.ip) && typeof given === 'string' && timingSafeEqual(digest(given), digest(token));
}
