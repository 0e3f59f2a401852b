/**
 * The sponsor page's thank-you list (`/sponsor`): built into the page
 * from the list as it was at build time (src/lib/sponsors.ts), then replaced
 * by the live one from the API — without React, and with every name set as
 * text, never as HTML.
 */
import { sponsorsPath } from '#contract/donation-paths.ts';
import type { Sponsor } from '#contract/donation.ts';
import { apiBase } from '@/lib/api/config.ts';

/** The day a sponsor gave, as the page's language writes it. */
export function sponsorDate(iso: string, lang: string): string {
  return new Intl.DateTimeFormat(lang, { dateStyle: 'long' }).format(new Date(iso));
}

/** Fills `list` from the API; leaves the built list as it is when the API cannot be reached. */
export async function showLiveSponsors(list: HTMLOListElement, empty: HTMLElement): Promise<void> {
  let sponsors: Sponsor[];
  try {
    const answer = (await (await fetch(`${apiBase}${sponsorsPath}`)).json()) as { code: number; data: Sponsor[] };
    if (answer.code !== 200) return;
    sponsors = answer.data;
  } catch {
    return;
  }
  const lang = document.documentElement.lang;
  list.replaceChildren(
    ...sponsors.map((sponsor) => {
      const item = document.createElement('li');
      const name = document.createElement('span');
      name.className = 'sponsor-name';
      name.textContent = sponsor.Name;
      const day = document.createElement('time');
      day.dateTime = sponsor.At;
      day.textContent = sponsorDate(sponsor.At, lang);
      item.append(name, day);
      return item;
    }),
  );
  list.hidden = sponsors.length === 0;
  empty.hidden = sponsors.length > 0;
}
