/**
 * Where each content entry is published, as a path without locale prefix:
 * articles and plugins have pages of their own, a release and a question are
 * anchors of the change log and the FAQ, and each entry of content/pages has
 * the page this table names (the one ContentPage renders it on). The
 * translation status links to them, and the editor's checks accept links to
 * them.
 */
import type { Collection } from './editorial/content-files.ts';

export const contentPagePaths = {
  accelerate: '/accelerate',
  'activate-help': '/activate/help',
  agreement: '/agreement',
  'agreement-auto': '/agreement/auto',
  'agreement-renew': '/agreement/renew',
  contact: '/contact',
  joinus: '/joinus',
  leigod: '/leigod',
  'liunx-setup-cer': '/liunxSetupCer',
  'macos-setup-cer': '/macosSetupCer',
  privacy: '/privacy',
  'recharge-steam': '/recharge/steam',
  sponsor: '/sponsor',
  unixhostaccess: '/unixhostaccess',
} as const;

export type ContentPageSlug = keyof typeof contentPagePaths;

/** The path of an entry, or undefined for a content page no page renders yet. */
export function entryUrl(collection: Collection, slug: string): string | undefined {
  switch (collection) {
    case 'articles':
      return `/article/${slug}`;
    case 'plugins':
      return `/plugin/${slug}`;
    case 'changelog':
      return `/changelog#${slug}`;
    case 'faq':
      return `/faq#${slug}`;
    case 'pages':
      return (contentPagePaths as Record<string, string>)[slug];
  }
}
