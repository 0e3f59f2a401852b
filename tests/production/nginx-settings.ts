/**
 * The timings deploy/nginx gives the API, read from its files, so a test holds
 * nginx to what the configuration says rather than to a copy of its numbers.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { hubPath } from '#contract/realtime.ts';

const nginxDir = path.resolve(import.meta.dirname, '../../deploy/nginx');
const read = (file: string) => readFileSync(path.join(nginxDir, file), 'utf8');

/** The body of the block that `opening` starts (`location /api/ {`); nginx's blocks here hold no inner braces. */
function block(text: string, opening: string): string {
  const start = text.indexOf(opening);
  if (start < 0) throw new Error(`deploy/nginx no longer has ${opening}`);
  return text.slice(start + opening.length, text.indexOf('}', start));
}

/** A duration setting (`15s`) in `text`, in milliseconds. */
function seconds(text: string, pattern: RegExp): number {
  const found = pattern.exec(text);
  if (!found) throw new Error(`deploy/nginx no longer says ${pattern}`);
  return Number(found[1]) * 1000;
}

const site = read('site.conf');
const proxy = read('api-proxy.conf');
const upstream = read('upstream.conf');

export const nginxTimings = {
  /** How long an ordinary API call may go unanswered before nginx gives up on its instance. */
  apiReadTimeoutMs: seconds(block(site, 'location /api/ {'), /proxy_read_timeout (\d+)s;/),
  /** The same for the hub's long-lived requests. */
  hubReadTimeoutMs: seconds(block(site, `location = /api${hubPath} {`), /proxy_read_timeout (\d+)s;/),
  connectTimeoutMs: seconds(proxy, /proxy_connect_timeout (\d+)s;/),
  /** How long nginx leaves an instance out after it failed a request (each server line says the same). */
  failTimeoutMs: seconds(upstream, /fail_timeout=(\d+)s/),
  /** The Retry-After of nginx's own answer when no instance answers. */
  retryAfterMs: seconds(block(site, 'location @api_unavailable {'), /add_header Retry-After (\d+) always;/),
};
