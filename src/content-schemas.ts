/**
 * The frontmatter each collection accepts (src/content.config.ts gives them
 * to Astro), here without Astro so the scaffold's tests hold new files to
 * the same rules as the build.
 */
import { z } from 'zod';

/**
 * Every entry may say `untranslated: true`: a translation scaffolded from its
 * source (`npm run new:article -- --locales all`) that no one has translated
 * yet. Readers get the source with the fallback notice until a translator
 * removes the line.
 */
const untranslated = { untranslated: z.boolean().optional() };

export const articles = z.object({
  ...untranslated,
  title: z.string().min(1).max(90),
  description: z.string().min(1).max(200),
  category: z.enum(['DR', 'DG']),
  date: z.coerce.date(),
  author: z.string().min(1),
  tags: z.array(z.string()).max(4).default([]),
});

/** The sections of a release in content/changelog/index.json, in the order pages show them. */
export const changeKinds = ['features', 'improvements', 'fixes'] as const;

// Version, date and the item keys are in content/changelog/index.json; a locale translates them.
export const changelog = z.object({
  ...untranslated,
  summary: z.string().min(1),
  items: z.record(z.string(), z.string().min(1)),
});

export const faq = z.object({
  ...untranslated,
  question: z.string().min(1),
  order: z.number().int().positive(),
  group: z.enum(['general', 'account', 'payment', 'acceleration']),
});

export const pages = z.object({
  ...untranslated,
  title: z.string().min(1),
  description: z.string().min(1).max(200),
  updated: z.coerce.date(),
});

// Version, dates, categories, platforms, licence, compatibility and the screenshot files are in
// content/plugins/catalogue.json (src/lib/plugins.ts checks that each locale covers them); a locale writes the words.
export const plugins = z.object({
  ...untranslated,
  name: z.string().min(1),
  summary: z.string().min(1).max(160),
  author: z.string().min(1),
  /** Each screenshot's alternative text, by the name catalogue.json gives it. */
  screenshots: z.record(z.string(), z.string().min(1).max(200)),
  /** What each release changed, by version, newest first as in catalogue.json. */
  changes: z.record(z.string(), z.array(z.string().min(1).max(300)).min(1)),
});
