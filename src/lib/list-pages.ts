/**
 * The prebuilt pages of a list with category tabs (paging: the first
 * page is 1, `perPage` to a page): every category's items, page by page, at
 * the paths `pathOf` gives under `base` — for a `[...list].astro` route.
 */
export function categoryListPages<C extends string, T>(options: {
  base: string;
  categories: readonly C[];
  items: readonly T[];
  inCategory: (item: T, category: C) => boolean;
  pathOf: (category: C, page: number) => string;
  perPage: number;
}) {
  const { base, categories, items, inCategory, pathOf, perPage } = options;
  return categories.flatMap((category) => {
    const listed = items.filter((item) => inCategory(item, category));
    const pages = Math.max(1, Math.ceil(listed.length / perPage));
    return Array.from({ length: pages }, (_, i) => {
      const path = pathOf(category, i + 1);
      return {
        params: { list: path.slice(base.length).replace(/^\//, '') || undefined },
        props: { path, category, page: i + 1, pages, items: listed.slice(i * perPage, (i + 1) * perPage) },
      };
    });
  });
}
