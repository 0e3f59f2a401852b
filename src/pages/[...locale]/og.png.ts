import type { APIRoute, InferGetStaticPropsType } from 'astro';
import { oncePerLocale } from '@/i18n/paths.ts';
import { useTranslations } from '@/i18n/t.ts';
import { renderOgImage } from '@/lib/og-image.ts';
import { site } from '@/lib/site.ts';

/** The locale's share image (`og:image` in Document.astro), drawn at build time: /og.png, /en/og.png, … */
export const getStaticPaths = oncePerLocale;

export const GET: APIRoute<InferGetStaticPropsType<typeof getStaticPaths>> = async ({ props, site: siteUrl }) => {
  if (!siteUrl) throw new Error('astro.config.mjs sets `site`');
  const png = await renderOgImage({ locale: props.locale, name: site.name, tagline: useTranslations(props.locale)('site.tagline'), host: siteUrl.host });
  return new Response(new Uint8Array(png), { headers: { 'Content-Type': 'image/png' } });
};
