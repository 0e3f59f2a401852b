/**
 * The scripts that must run before first paint, inlined in <head>: the
 * once-only locale redirect for unprefixed URLs (and box pages' `?language=`),
 * the stored theme, the `js`
 * class that lets CSS fold the mobile menus away only where a script can open
 * them again, and the `signed-in` class of a visitor with a valid stored
 * login, so login prompts never flash for them; and the watch over the
 * page's islands, which turns an island that cannot load into a message
 * (island-loading.ts). They reuse the tested functions by serialising them,
 * minified once per build.
 */
import { transformSync } from 'esbuild';
import { preferredLocale } from '#contract/locales.ts';
import { localeRedirectTarget, type RedirectConfig } from '@/i18n/detect.ts';
import { defaultLocale, localeStorageKey, locales } from '@/i18n/locales.ts';
import { watchIslandLoading, type IslandLoadingConfig } from './island-loading.ts';
import { isTokenValid } from '@/lib/auth-token.ts';
import { signedInClass, storageKeys } from '@/lib/storage.ts';
import { chunkLoadTimeoutMs } from '@/stores/loading.ts';
import { applyTheme, darkClass, isDarkMode, parseThemeMode, themeStorageKey, themeStyleId } from '@/stores/theme.ts';

const minify = (code: string) => transformSync(code, { minify: true, target: 'es2020' }).code.trim();

function build(clientParams: boolean): string[] {
  const redirectConfig: RedirectConfig = {
    segments: Object.fromEntries(locales.map((l) => [l.code, l.segment])),
    fallback: defaultLocale,
    storageKey: localeStorageKey,
    languageParam: clientParams,
  };
  const locale = `(function(){var to=(${localeRedirectTarget})(${preferredLocale},${JSON.stringify(redirectConfig)},window);if(to)location.replace(to);})();`;
  const themeConfig = { key: themeStorageKey, cls: darkClass, id: themeStyleId, param: clientParams };
  const theme = `(function(c){var parse=${parseThemeMode},dark=${isDarkMode},apply=${applyTheme},m=null;if(c.param)m=new URLSearchParams(location.search).get('theme');if(!m)try{m=localStorage.getItem(c.key)}catch(e){}apply(document,dark(parse(m),matchMedia('(prefers-color-scheme: dark)').matches),c.cls,c.id);})(${JSON.stringify(themeConfig)});`;
  const session = `(function(k,c,valid){try{if(valid(JSON.parse(localStorage.getItem(k))))document.documentElement.classList.add(c)}catch(e){}})(${JSON.stringify(storageKeys.auth)},${JSON.stringify(signedInClass)},${isTokenValid});`;
  const islandConfig: IslandLoadingConfig = { key: storageKeys.chunkReload, timeout: chunkLoadTimeoutMs };
  const islands = `(${watchIslandLoading})(${JSON.stringify(islandConfig)},window);`;
  return [minify(locale), minify(`${theme}${session}document.documentElement.classList.add('js');${islands}`)];
}

const variants = { page: build(false), box: build(true) };

/**
 * The inline head scripts; box pages (`clientParams`) also obey `?language=`
 * and `?theme=`. A prefixed URL is never redirected except by a box page's
 * `?language=`, so a prefixed page other than a box page leaves the redirect out.
 */
export function headScripts(clientParams: boolean, prefixed: boolean): string[] {
  const [redirect, theme] = clientParams ? variants.box : variants.page;
  return prefixed && !clientParams ? [theme] : [redirect, theme];
}

/** Copies the theme class from <html> to <body> the moment the body opens (dark mode puts the class on both). */
export const bodyThemeScript = `document.body.classList.toggle(${JSON.stringify(darkClass)},document.documentElement.classList.contains(${JSON.stringify(darkClass)}))`;
