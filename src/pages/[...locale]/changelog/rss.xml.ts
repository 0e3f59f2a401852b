import type { APIRoute, InferGetStaticPropsType } from 'astro';
import { oncePerLocale } from '@/i18n/paths.ts';
import { feedResponse } from '@/lib/feeds.ts';

export const getStaticPaths = oncePerLocale;

export const GET: APIRoute<InferGetStaticPropsType<typeof getStaticPaths>> = ({ props, site }) => feedResponse('changelog', 'rss', props.locale, site);
