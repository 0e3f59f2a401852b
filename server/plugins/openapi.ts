/**
 * The API described for others: the OpenAPI document of the contract
 * (contract/openapi.ts) at /api/openapi.json, built once at start, and a
 * reference page that draws it at /api/reference with Swagger UI, whose files
 * this server sends from its own package (swagger-ui-dist), never from a CDN.
 * The development stand-ins' calls are in the document only where the
 * stand-ins are. Neither is a page of the site: no sitemap has them, and they
 * ask search engines not to index them.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { Negotiator } from '@fastify/accept-negotiator';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { openApiDocument } from '#contract/openapi.ts';
import { devStandInsAllowed } from '../config.ts';
import { publicFor } from '../http/cache-control.ts';
import { referencePagePolicy } from './security.ts';

/** The renderer's files the page loads; nothing else of its package is served. */
const rendererFiles = new Set(['swagger-ui.css', 'swagger-ui-bundle.js']);

const versionOf = async (file: string | URL) => (JSON.parse(await readFile(file, 'utf8')) as { version: string }).version;

type Encoding = 'br' | 'gzip';
const encodings = new Negotiator<Encoding>({ supportedValues: ['br', 'gzip'] });

/**
 * The document as it is and compressed, made once per process for each way it can be (the contract does not change while
 * the process runs): an answer only sends one of the buffers.
 */
const documents = new Map<boolean, Promise<{ plain: Buffer } & Record<Encoding, Buffer>>>();
function documentFor(withDev: boolean): Promise<{ plain: Buffer } & Record<Encoding, Buffer>> {
  let made = documents.get(withDev);
  if (!made) {
    made = versionOf(new URL('../../package.json', import.meta.url)).then((version) => {
      const plain = Buffer.from(JSON.stringify(openApiDocument({ version, withDev })));
      return { plain, br: zlib.brotliCompressSync(plain, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 9 } }), gzip: zlib.gzipSync(plain) };
    });
    documents.set(withDev, made);
  }
  return made;
}

/** The reference page: Swagger UI reading the document, in English (a page for developers, not the site's). */
function referencePage(assets: string, documentUrl: string): string {
  const options = { url: documentUrl, dom_id: '#reference', deepLinking: true, showExtensions: true, validatorUrl: null };
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>Beacon Toolkit API reference</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${assets}/swagger-ui.css">
</head>
<body>
<div id="reference"></div>
<script src="${assets}/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle(${JSON.stringify(options)});</script>
</body>
</html>
`;
}

export default async function openapi(app: FastifyInstance): Promise<void> {
  const rendererRoot = path.dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json')));
  const [document, rendererVersion] = await Promise.all([documentFor(devStandInsAllowed(app.config)), versionOf(path.join(rendererRoot, 'package.json'))]);
  // The renderer's version in its files' path: a new one is a new address, so browsers may keep each for good.
  const assets = `${app.prefix}/reference/${rendererVersion}`;
  const page = referencePage(assets, `${app.prefix}/openapi.json`);
  const pagePolicy = referencePagePolicy(page);

  app.get('/openapi.json', async (request, reply) => {
    const encoding = encodings.negotiate(request.headers['accept-encoding'] ?? '');
    if (encoding) reply.header('content-encoding', encoding);
    return reply
      .header('cache-control', publicFor(3600_000))
      .header('vary', 'accept-encoding')
      .header('x-robots-tag', 'noindex')
      .type('application/json; charset=utf-8')
      .send(encoding ? document[encoding] : document.plain);
  });

  app.get('/reference', async (_request, reply) =>
    reply
      .header('content-security-policy', pagePolicy)
      .header('cache-control', 'no-cache')
      .header('x-robots-tag', 'noindex')
      .type('text/html; charset=utf-8')
      .send(page),
  );

  await app.register(fastifyStatic, {
    root: rendererRoot,
    prefix: `/reference/${rendererVersion}/`,
    decorateReply: false,
    index: false,
    allowedPath: (pathName) => rendererFiles.has(pathName.replace(/^\//, '')),
    immutable: true,
    maxAge: '365d',
  });
}
