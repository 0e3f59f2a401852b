/**
 * Every plugin's rating (the plugin list's data), on its own so
 * the prebuilt list page can show fresh ratings without the session stores.
 */
import { pluginCacheMs, pluginCalls, type Rating } from '#contract/plugins.ts';
import { call } from '@/lib/api/client.ts';
import { createFetcherStore } from '@/lib/api/query.ts';

export const listKey = 'plugin-ratings';

export const $pluginRatings = createFetcherStore<Rating[]>([listKey], {
  fetcher: () => call(pluginCalls.list, { fresh: true }),
  dedupeTime: pluginCacheMs.list,
});
