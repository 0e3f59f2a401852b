/**
 * Serves the built static site: pretty URLs (`/en/download` → en/download/index.html),
 * the locale's not-found page with status 404, and cache headers that let
 * browsers keep hashed assets forever but always revalidate HTML.
 */
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyPluginAsync } from 'fastify';
import fp from 'fastify-plugin';
import { pagePolicy } from '../site/csp.ts';
import { resolveSitePath } from '../site/resolve.ts';

export interface SiteOptions {
  root: string;
  /** Other origins pages may call (an API on another host). */
  connectSources: string[];
  /** Pages answered as not found (named without locale): the stand-ins' own, in production. */
  hiddenPages?: readonly string[];
}

const immutable = 'public, max-age=31536000, immutable';
const revalidate = 'public, max-age=0, must-revalidate';
const shortLived = 'public, max-age=3600';

function cacheControl(file: string): string {
  if (file.startsWith('_astro/')) return immutable;
  if (file.endsWith('.html') || file.endsWith('.xml')) return revalidate;
  return shortLived;
}

const site: FastifyPluginAsync<SiteOptions> = async (app, options) => {
  const root = path.resolve(options.root);
  const hidden = new Set(options.hiddenPages);
  const isFile = async (relative: string) => (await stat(path.join(root, relative)).catch(() => null))?.isFile() ?? false;

  // The built site does not change while the server runs, so each page's policy is computed once.
  const policies = new Map<string, Promise<string>>();
  const policyOf = (file: string) => {
    let policy = policies.get(file);
    if (!policy) {
      policy = readFile(path.join(root, file), 'utf8').then((html) => pagePolicy(html, options.connectSources));
      policies.set(file, policy);
    }
    return policy;
  };

  // Brotli or gzip siblings made at build time (site/precompress.ts) go to browsers that accept them.
  await app.register(fastifyStatic, { root, serve: false, cacheControl: false, preCompressed: true });

  // Everything no route claims is the site's, except under /api, whose own not-found handler
  // answers with an envelope (Fastify picks the not-found handler of the longest prefix).
  app.setNotFoundHandler(async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.code(405).header('allow', 'GET, HEAD').send();
    const { file, status } = await resolveSitePath(new URL(request.url, 'http://site').pathname, isFile, hidden);
    if (file.endsWith('.html')) reply.header('content-security-policy', await policyOf(file));
    return reply
      .code(status)
      .header('cache-control', status === 200 ? cacheControl(file) : 'no-store')
      .sendFile(file);
  });
};

export default fp(site, { name: 'site' });
