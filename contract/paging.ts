/**
 * Lists page alike: 24 a page, the first page is 1.
 * The page number a path carries is parsed by each contract that has one
 * (commerce, activation, plugins): here it would join the api chunk that every
 * island page loads (astro.config.mjs), for the few pages that use it.
 */
import * as z from 'zod/mini';

/** Items on a page of any list. */
export const pageSize = 24;

/**
 * The request helper's defaults for a list read by scrolling (the
 * reviews): it fetches this many at a time, and the next batch once its end
 * comes this close to the bottom of the screen.
 */
export const loadMore = { pageSize: 10, thresholdPx: 100 } as const;

/** A page of a list: its items, how many there are in all, and which page this is. */
export function paged<T extends z.ZodMiniType>(item: T) {
  return z.object({ Items: z.array(item), Total: z.int(), Page: z.int() });
}
