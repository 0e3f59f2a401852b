/**
 * The plugin list page without an island: fills each card's rating from the
 * list data set (the fetcher store, so it is cached and shared), and filters
 * the cards as the reader types in the search field, which only appears when
 * this script runs.
 */
import { interpolate } from '#contract/interpolate.ts';
import { formatNumber } from '@/i18n/numbers.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { pluginRules, type Rating } from '#contract/plugins.ts';
import { $pluginRatings } from '@/stores/plugin-ratings.ts';

const list = document.querySelector<HTMLElement>('[data-plugin-list]');
if (list) {
  const strings = JSON.parse(list.dataset.strings!) as Record<string, string>;
  const locale = list.dataset.locale as LocaleCode;
  const cards = [...list.querySelectorAll<HTMLElement>('[data-plugin]')];

  const show = (card: HTMLElement, rating: Rating) => {
    const slot = card.querySelector<HTMLElement>('[data-plugin-rating]')!;
    const meter = slot.querySelector<HTMLElement>('.stars')!;
    const text = slot.querySelector<HTMLElement>('[data-rating-text]')!;
    const average = formatNumber(rating.Average, locale, 1);
    meter.querySelector<HTMLElement>('.stars-fill')!.style.inlineSize = `${(rating.Average / pluginRules.ratingMax) * 100}%`;
    meter.setAttribute('aria-label', interpolate(strings['plugin.ratingAverage'], { average, max: pluginRules.ratingMax }));
    meter.hidden = rating.Count === 0;
    text.textContent =
      rating.Count === 0
        ? strings['plugin.noRatings']
        : `${average} · ${interpolate(strings['plugin.ratingCount'], { count: formatNumber(rating.Count, locale) })}`;
    slot.hidden = false;
  };
  $pluginRatings.subscribe(({ data }) => {
    for (const rating of data ?? []) {
      const card = cards.find((candidate) => candidate.dataset.plugin === rating.Plugin);
      if (card) show(card, rating);
    }
  });

  const form = document.querySelector<HTMLFormElement>('[data-plugin-search]')!;
  const input = form.querySelector('input')!;
  const shown = form.querySelector<HTMLElement>('[data-plugin-shown]')!;
  const none = document.querySelector<HTMLElement>('[data-plugin-none]')!;
  const filter = () => {
    const words = input.value.toLocaleLowerCase().split(/\s+/).filter(Boolean);
    let count = 0;
    for (const card of cards) {
      const haystack = card.textContent!.toLocaleLowerCase();
      card.hidden = !words.every((word) => haystack.includes(word));
      if (!card.hidden) count += 1;
    }
    none.hidden = count > 0;
    shown.textContent = words.length ? interpolate(strings['plugin.shown'], { count }) : '';
  };
  form.hidden = false;
  form.addEventListener('submit', (event) => event.preventDefault());
  input.addEventListener('input', filter);
}
