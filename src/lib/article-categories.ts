import type { Translate, UiKey } from '@/i18n/strings.ts';
import { enumItems, type EnumItem } from './enum.ts';

/** Article category codes; ALL is the unfiltered list. */
export const articleCategories = ['ALL', 'DR', 'DG'] as const;
export type ArticleCategory = (typeof articleCategories)[number];

/** Paging: first page 1, 24 to a page. */
export const articlesPerPage = 24;

/** The categories as enum items, names in the reader's language. */
export function categoryItems(t: Translate<UiKey>): EnumItem<ArticleCategory>[] {
  return enumItems(articleCategories.map((c) => [c, t(`article.category.${c}`)] as const));
}

/** The list URL of a category page: /article, /article/page/2, /article/category/dr/page/2. */
export function articleListPath(category: ArticleCategory, page: number): string {
  const base = category === 'ALL' ? '/article' : `/article/category/${category.toLowerCase()}`;
  return page > 1 ? `${base}/page/${page}` : base;
}
