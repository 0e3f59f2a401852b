/**
 * The Content-Security-Policy of a built HTML page: only our own scripts run —
 * bundled ones from our origin, and the page's inline scripts (Astro's island
 * loader, our before-paint scripts) by their SHA-256 hashes.
 */
import { createHash } from 'node:crypto';

const inlineScript = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, body] of html.matchAll(inlineScript)) {
    if (body.trim()) hashes.add(`'sha256-${createHash('sha256').update(body).digest('base64')}'`);
  }
  return [...hashes];
}

export function pagePolicy(html: string, connectSources: string[] = []): string {
  return [
    "default-src 'self'",
    // Pagefind's search index runs as WebAssembly.
    `script-src 'self' 'wasm-unsafe-eval' ${inlineScriptHashes(html).join(' ')}`.trim(),
    // The theme adds a style element at run time; styles cannot run code.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: https:",
    `connect-src 'self' ${connectSources.join(' ')}`.trim(),
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'self'",
  ].join('; ');
}
