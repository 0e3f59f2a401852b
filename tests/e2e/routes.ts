/**
 * Every public route and the title it must show in each locale,
 * read from the same dictionaries and content files the site is built from.
 */
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { fillFacts } from '#contract/facts.ts';
import { interpolate } from '#contract/interpolate.ts';
import { localizePath, locales, type LocaleCode } from '../../src/i18n/locales.ts';
import { dictionary as parts, dictionarySource } from '../../src/lib/editorial/content-files.ts';

/** A locale's UI dictionary as the build reads it (src/i18n/t.ts): the site's strings, and the shared messages as `messages.<key>`. */
export const dictionary = (locale: LocaleCode): Record<string, string> => ({
  ...dictionarySource(locale),
  ...Object.fromEntries(Object.entries(parts(locale).messages).map(([key, text]) => [`messages.${key}`, text])),
});

/** A UI string as the page shows it: facts filled in, then the parameters. */
export const say = (locale: LocaleCode, key: string, params: Record<string, string> = {}): string =>
  interpolate(fillFacts(dictionary(locale)[key], locale), params);

/** A server message (its own, or one it shares with the site) as the server sends it, facts filled in. */
export const serverSays = (locale: LocaleCode, key: string): string => {
  const { server, messages } = parts(locale);
  return fillFacts({ ...messages, ...server }[key], locale);
};

function frontmatter(collection: string, locale: LocaleCode, slug: string): Record<string, string> {
  const text = readFileSync(`content/${collection}/${locale}/${slug}.md`, 'utf8');
  return load(text.split('---')[1]) as Record<string, string>;
}

type Title = (locale: LocaleCode) => string;
const ui =
  (key: string): Title =>
  (locale) =>
    dictionary(locale)[key];
const page =
  (slug: string): Title =>
  (locale) =>
    frontmatter('pages', locale, slug).title;
const article =
  (slug: string): Title =>
  (locale) =>
    frontmatter('articles', locale, slug).title;
const plugin =
  (slug: string): Title =>
  (locale) =>
    frontmatter('plugins', locale, slug).name;

/**
 * `chrome: false` marks pages without the site header: box pages, the pay
 * family and the operators' console (a shell of its own); `login: true` the account centre, which sends a visitor who is not
 * logged in to the login page.
 */
export const routes: Array<{ path: string; title: Title; chrome?: false; login?: true }> = [
  { path: '/', title: ui('home.title') },
  { path: '/accelerate', title: page('accelerate') },
  { path: '/bindorder', title: ui('bindorder.title'), chrome: false },
  { path: '/unixhostaccess', title: page('unixhostaccess') },
  { path: '/liunxSetupCer', title: page('liunx-setup-cer') },
  { path: '/macosSetupCer', title: page('macos-setup-cer') },
  { path: '/faq', title: ui('faq.title') },
  { path: '/joinus', title: page('joinus') },
  { path: '/contact', title: page('contact') },
  { path: '/recharge/steam', title: page('recharge-steam') },
  { path: '/customer/service', title: ui('service.title') },
  { path: '/article', title: ui('article.title') },
  { path: '/article/category/dr', title: ui('article.category.DR') },
  { path: '/article/category/dg', title: ui('article.category.DG') },
  { path: '/article/getting-started', title: article('getting-started') },
  { path: '/article/release-3-0-1119', title: article('release-3-0-1119') },
  { path: '/sponsor', title: page('sponsor') },
  { path: '/download', title: ui('download.title') },
  { path: '/changelog', title: ui('changelog.title') },
  { path: '/privacy', title: page('privacy') },
  { path: '/agreement', title: page('agreement') },
  { path: '/agreement/auto', title: page('agreement-auto') },
  { path: '/agreement/renew', title: page('agreement-renew') },
  { path: '/leigod', title: page('leigod') },
  { path: '/plugin', title: ui('plugin.title') },
  { path: '/plugin/category/security', title: ui('plugin.category.security') },
  { path: '/plugin/authenticator', title: plugin('authenticator') },
  { path: '/wechatpay', title: ui('pay.wechatTitle'), chrome: false },
  { path: '/privacybox', title: page('privacy'), chrome: false },
  { path: '/articledetailbox', title: ui('article.title'), chrome: false },
  { path: '/articledetailbox/cloud-idle-guide', title: article('cloud-idle-guide'), chrome: false },
  { path: '/agreementbox', title: page('agreement'), chrome: false },
  { path: '/changelogbox', title: ui('changelog.title'), chrome: false },
  { path: '/faqbox', title: ui('faq.title'), chrome: false },
  { path: '/activate', title: ui('activate.title') },
  { path: '/activate/cdkey', title: ui('activate.cdkey.title') },
  { path: '/activate/help', title: page('activate-help') },
  { path: '/raffle', title: ui('raffle.title') },
  { path: '/raffle/forthwith', title: ui('raffle.forthwith.title') },
  { path: '/raffle/verify', title: ui('raffle.verify.title') },
  { path: '/payment', title: ui('pay.title'), chrome: false },
  { path: '/search', title: ui('search.title') },
  { path: '/translation-status', title: ui('translations.title') },
  { path: '/admin', title: ui('console.title'), chrome: false },
  { path: '/admin/customers', title: ui('console.nav.customers'), chrome: false },
  { path: '/admin/orders', title: ui('console.nav.orders'), chrome: false },
  ...['invoices', 'cdkeys', 'raffles', 'reviews', 'status', 'audit'].map((area) => ({
    path: `/admin/${area}`,
    title: ui(`console.nav.${area}`),
    chrome: false as const,
  })),
  { path: '/account/login', title: ui('login.title') },
  ...['info', 'edit', 'bind', 'wallet', 'safe', 'game', 'agreements'].map((p) => ({
    path: `/account/center/${p}`,
    title: ui(`account.${p}.title`),
    login: true as const,
  })),
  { path: '/account/center/steam/account', title: ui('account.steamAccount.title'), login: true },
  { path: '/account/center/steam/cloudidea', title: ui('account.cloudidea.title'), login: true },
  { path: '/account/center/steam/point', title: ui('account.point.title'), login: true },
  { path: '/account/center/order', title: ui('account.order.title'), login: true },
  { path: '/account/center/order/detail', title: ui('account.orderDetail.title'), login: true },
  { path: '/account/center/order/receipt', title: ui('account.receipt.title'), login: true },
  { path: '/account/center/redemption', title: ui('account.redemption.title'), login: true },
  { path: '/account/center/redemption/donate', title: ui('account.donate.title'), login: true },
  { path: '/account/center/safe/confirmemail', title: ui('email.sent.title'), chrome: false },
  { path: '/verification/email/confirm', title: ui('email.confirm.title'), chrome: false },
];

/** Default routes that send the visitor on, with where they land. */
export const redirects = [
  { path: '/home', to: '/' },
  { path: '/account', to: '/account/center/info' },
  { path: '/account/center', to: '/account/center/info' },
  { path: '/account/center/steam', to: '/account/center/steam/point' },
];

export { localizePath, locales };
