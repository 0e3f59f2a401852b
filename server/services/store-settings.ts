/**
 * Where the external store is and the secret it checks store tokens with
 * (docs/tour.md "The store"). Outside production, unset settings give the
 * development store under /api/dev/store and a secret derived from the
 * server's own, which that store computes the same way.
 */
import { createHmac } from 'node:crypto';
import { devStore } from '#contract/dev.ts';
import { apiOrigin, type Config } from '../config.ts';

/** The store's base address, without a trailing slash. */
export function storeBase(config: Config): string {
  return (config.STORE_URL ?? `${apiOrigin(config)}/api${devStore.path}`).replace(/\/+$/, '');
}

export function storeIntrospectionSecret(config: Config, serverSecret: Buffer): string {
  return config.STORE_INTROSPECTION_SECRET ?? createHmac('sha256', serverSecret).update('store-introspection').digest('base64url');
}
