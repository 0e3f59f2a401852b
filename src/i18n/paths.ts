import type { GetStaticPathsItem } from 'astro';
import { locales, type LocaleCode } from './locales.ts';

/**
 * The one place `[...locale]` routes are expanded: the default locale gets the
 * unprefixed spec path, every other locale its segment. Extra params and props
 * (pagination, slugs) are multiplied in by `each`.
 */
export function localePaths<T extends { params?: Record<string, string | undefined>; props?: Record<string, unknown> }>(
  each: (locale: LocaleCode) => T[] | Promise<T[]> = () => [{} as T],
): Promise<GetStaticPathsItem[]> {
  return Promise.all(
    locales.map(async (l) =>
      (await each(l.code)).map((item) => ({
        params: { locale: l.segment || undefined, ...item.params },
        props: { locale: l.code, ...item.props },
      })),
    ),
  ).then((lists) => lists.flat());
}
