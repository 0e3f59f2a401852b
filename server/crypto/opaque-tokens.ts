/**
 * Opaque secret tokens (sessions, e-mail links, quick-login states and
 * tickets, device codes): random, URL-safe, and stored only as their SHA-256
 * hash, so a copy of the database gives nobody a usable token.
 */
import { createHash, randomBytes } from 'node:crypto';

export const newOpaqueToken = (bytes = 32): string => randomBytes(bytes).toString('base64url');

export const hashOpaqueToken = (token: string): string => createHash('sha256').update(token).digest('base64url');
