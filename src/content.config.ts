import { defineCollection } from 'astro:content';
import { glob } from 'astro/loaders';
import * as schemas from './content-schemas.ts';

const contentRoot = process.env.CONTENT_DIR ?? './content';

/** Markdown under content/<collection>/<locale>/; ids are `<locale>/<slug>`. */
function localized(collection: string) {
  return glob({
    pattern: '*/*.md',
    base: `${contentRoot}/${collection}`,
    generateId: ({ entry }) => entry.replace(/\.md$/, ''),
  });
}

export const collections = {
  articles: defineCollection({ loader: localized('articles'), schema: schemas.articles }),
  changelog: defineCollection({ loader: localized('changelog'), schema: schemas.changelog }),
  faq: defineCollection({ loader: localized('faq'), schema: schemas.faq }),
  pages: defineCollection({ loader: localized('pages'), schema: schemas.pages }),
  plugins: defineCollection({ loader: localized('plugins'), schema: schemas.plugins }),
};
