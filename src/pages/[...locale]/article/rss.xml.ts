import type { APIRoute } from 'astro';
import type { LocaleCode } from '../../../i18n/locales.ts';
import { localePaths } from '../../../i18n/paths.ts';
import { feedResponse } from '../../../lib/feeds.ts';

export const getStaticPaths = () => localePaths();

export const GET: APIRoute<{ locale: LocaleCode }> = ({ props, site }) => feedResponse('articles', 'rss', props.locale, site);
