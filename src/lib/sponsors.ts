/**
 * The sponsor list as it is when the site is built: read from the API at
 * BUILD_API_URL (a deployment's build points it at the running production
 * API). Without one — a fresh clone, CI — or when that API cannot be
 * reached, the page is built with an empty list, and the live list from the
 * API fills it in the browser either way.
 */
import { donationCalls, Sponsor } from '#contract/donation.ts';
import * as z from 'zod/mini';

const buildFetchTimeoutMs = 10_000;

let loaded: Promise<Sponsor[]> | undefined;

export async function fetchSponsors(apiUrl: string): Promise<Sponsor[]> {
  const url = `${apiUrl.replace(/\/$/, '')}/api${donationCalls.sponsors.path}`;
  try {
    const answer = (await (await fetch(url, { signal: AbortSignal.timeout(buildFetchTimeoutMs) })).json()) as { code: number; data: unknown };
    return z.array(Sponsor).parse(answer.data);
  } catch (error) {
    console.warn(`The sponsor list could not be read from ${url}; /sponsor is built without it and fills it live. (${String(error)})`);
    return [];
  }
}

/** Read once per build, however many locales render the page. */
export function buildTimeSponsors(): Promise<Sponsor[]> {
  const apiUrl = process.env.BUILD_API_URL;
  loaded ??= apiUrl ? fetchSponsors(apiUrl) : Promise.resolve([]);
  return loaded;
}
