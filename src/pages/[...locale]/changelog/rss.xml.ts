import type { APIRoute, InferGetStaticPropsType } from 'astro';
import { localePaths } from '@/i18n/paths.ts';
import { feedResponse } from '@/lib/feeds.ts';

export const getStaticPaths = () => localePaths();

export const GET: APIRoute<InferGetStaticPropsType<typeof getStaticPaths>> = ({ props, site }) => feedResponse('changelog', 'rss', props.locale, site);
