import type { Params, Props } from 'astro';
import { locales, type LocaleCode } from './locales.ts';

/** What a page's `each` adds to one locale's path: more params (slugs, pages) and props. */
interface PathExtras<P extends Params, X extends Props> {
  params?: P;
  props?: X;
}

/**
 * One expanded path, typed all the way through so a page can declare
 * `type Props = InferGetStaticPropsType<typeof getStaticPaths>` and get
 * `{ locale: LocaleCode }` plus whatever its `each` supplies.
 */
interface LocalePath<P extends Params, X extends Props> {
  params: { locale: string | undefined } & P;
  props: { locale: LocaleCode } & X;
}

/**
 * The one place `[...locale]` routes are expanded: the default locale gets the
 * unprefixed path, every other locale its segment. Extra params and props
 * (pagination, slugs) are multiplied in by `each`.
 */
export async function localePaths<P extends Params = Record<never, never>, X extends Props = Record<never, never>>(
  each: (locale: LocaleCode) => PathExtras<P, X>[] | Promise<PathExtras<P, X>[]> = () => [{}],
): Promise<LocalePath<P, X>[]> {
  const lists = await Promise.all(
    locales.map(async (l) =>
      (await each(l.code)).map((item) => ({
        // Object.assign, not spread: spreading an optional generic loses its type.
        params: Object.assign({ locale: l.segment || undefined }, item.params),
        props: Object.assign({ locale: l.code }, item.props),
      })),
    ),
  );
  return lists.flat();
}

/**
 * `getStaticPaths` of a page that exists once per locale and takes nothing
 * else: `export const getStaticPaths = oncePerLocale;`. Astro types the page's
 * `Astro.props` (`{ locale }`) from it, so such a page declares no `Props`.
 */
export const oncePerLocale = () => localePaths();
