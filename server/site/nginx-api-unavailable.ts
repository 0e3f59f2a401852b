/**
 * The nginx maps of the answer nginx gives for `/api` when no API instance
 * answers (deploy/nginx/site.conf's `@api_unavailable`): the API's own
 * envelope `{code, message, data: null}` with code 503, its message from the
 * server's dictionaries in the reader's language, picked from Accept-Language
 * as the instances pick it (server/plugins/locale.ts), quoting nginx's
 * `$request_id` as the reference (it is in nginx's log). Written into
 * `.nginx-maps.conf` by nginx-maps.ts, so no text is copied into deploy/nginx.
 *
 * - `$beacon_api_language`: the first language of the header that is one of
 *   ours (by its primary subtag), as browsers and the site list them, most
 *   wanted first — q-values are not weighed;
 * - `$beacon_api_locale`: that language's locale (Chinese by script, then by
 *   region, as preferredLocale of contract/locales.ts decides), else the default;
 * - `$beacon_api_unavailable`: the answer's body in that locale.
 */
import { ErrorCode } from '#contract/errors.ts';
import { defaultLocale, localeCodes } from '#contract/locales.ts';
import { message } from '../i18n/messages.ts';

/** nginx's id of the request, which its access log names (deploy/nginx/http.conf's `id=`); braced, so no letter after it joins its name. */
const requestId = '${request_id}';

/** A value nginx reads as it is: JSON's escapes kept, and no `$` but the request id's (nginx has no escape for it). */
function nginxString(text: string): string {
  if (text.replaceAll(requestId, '').includes('$')) throw new Error(`cannot give nginx ${text}: a "$" would name a variable`);
  return `"${text.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** The envelope nginx answers in `locale`: what the instances answer with 503, the message saying no instance answered. */
export function unavailableBody(locale: (typeof localeCodes)[number]): string {
  return JSON.stringify({ code: ErrorCode.Unavailable, message: message(locale, 'instancesUnavailable', { id: requestId }), data: null });
}

const primaryTags = [...new Set(localeCodes.map((code) => code.split('-')[0].toLowerCase()))];

/** The maps' lines, for the http level of nginx's configuration. */
export function apiUnavailableMaps(): string[] {
  const others = localeCodes.filter((code) => !code.startsWith('zh-'));
  return [
    `map $http_accept_language $beacon_api_language {`,
    `  "~*^(?:[^,]*,)*?\\s*(?<beacon_tag>(?:${primaryTags.join('|')})(?:-[0-9a-z]+)*)\\s*(?:;|,|$)" $beacon_tag;`,
    `  default "";`,
    `}`,
    ``,
    `map $beacon_api_language $beacon_api_locale {`,
    // Chinese: by its script when the tag names one, else Traditional for Taiwan, Hong Kong and Macao.
    `  "~*^zh(?:-[0-9a-z]+)*-hant(?:-|$)" zh-TW;`,
    `  "~*^zh(?:-[0-9a-z]+)*-hans(?:-|$)" zh-CN;`,
    `  "~*^zh(?:-[0-9a-z]+)*-(?:tw|hk|mo)(?:-|$)" zh-TW;`,
    `  "~*^zh(?:-|$)" zh-CN;`,
    ...others.map((code) => `  "~*^${code}(?:-|$)" ${code};`),
    `  default ${defaultLocale};`,
    `}`,
    ``,
    `map $beacon_api_locale $beacon_api_unavailable {`,
    ...localeCodes.map((code) => `  ${code === defaultLocale ? 'default' : code} ${nginxString(unavailableBody(code))};`),
    `}`,
    ``,
  ];
}
