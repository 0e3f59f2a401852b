import { describe, expect, it } from 'vitest';
import { ErrorCode } from '#contract/errors.ts';
import { defaultLocale, localeCodes } from '#contract/locales.ts';
import { message, negotiateLocale } from '../../server/i18n/messages.ts';
import { apiUnavailableMaps } from '../../server/site/nginx-api-unavailable.ts';

/** A string as nginx reads it from its configuration: quotes taken off, `\"`, `\'` and `\\` unescaped. */
const unquoted = (token: string) => (token.startsWith('"') ? token.slice(1, -1).replace(/\\(["'\\])/g, '$1') : token);

interface NginxMap {
  exact: Map<string, string>;
  regexes: Array<[RegExp, string]>;
  fallback: string;
}

/** The generated maps, by the variable each sets. */
function parsedMaps(): Record<string, NginxMap> {
  const maps: Record<string, NginxMap> = {};
  let current: NginxMap | null = null;
  for (const line of apiUnavailableMaps()) {
    const opening = /^map \$\w+ \$(\w+) \{$/.exec(line);
    if (opening) maps[opening[1]] = current = { exact: new Map(), regexes: [], fallback: '' };
    else if (line === '}') current = null;
    else if (current && line.trim()) {
      const [, key, value] = /^\s+("(?:[^"\\]|\\.)*"|\S+)\s+("(?:[^"\\]|\\.)*"|\S+);$/.exec(line)!;
      const source = unquoted(key);
      if (source === 'default') current.fallback = unquoted(value);
      // PCRE's `~*` is a case-insensitive pattern; these use nothing JavaScript reads otherwise.
      else if (source.startsWith('~*')) current.regexes.push([new RegExp(source.slice(2), 'i'), unquoted(value)]);
      else current.exact.set(source, unquoted(value));
    }
  }
  return maps;
}

/** What nginx sets a map's variable to for `input`: an exact key first, then the first pattern that matches (its captures filled in), else the default. */
function evaluate(map: NginxMap, input: string): string {
  const exact = map.exact.get(input);
  if (exact !== undefined) return exact;
  for (const [pattern, value] of map.regexes) {
    const found = pattern.exec(input);
    if (found) return value.replace(/\$(\w+)/g, (_, name: string) => found.groups?.[name] ?? '');
  }
  return map.fallback;
}

describe("nginx's answer when no API instance answers", () => {
  const maps = parsedMaps();
  const localeFor = (header: string) => evaluate(maps.beacon_api_locale, evaluate(maps.beacon_api_language, header));

  it('picks the locale from Accept-Language as the instances do', () => {
    const headers = [
      '',
      'ja',
      'zh-TW',
      'zh-CN',
      'zh',
      'zh-Hant',
      'zh-Hant-HK',
      'zh-Hans-TW',
      'zh-HK',
      'zh-MO',
      'zh-SG',
      'ko-KR',
      'JA-jp',
      'en-US,en;q=0.9',
      'en-GB, ru;q=0.9',
      'es-MX,es;q=0.9',
      'fr-FR,ko;q=0.8,en;q=0.5',
      'pt-BR, it;q=0.5',
      'ru-RU,ru;q=0.9,en-US;q=0.8,en;q=0.7',
      'de',
      '*',
      'english, it',
      'en_US',
    ];
    for (const header of headers) expect(localeFor(header), header).toBe(negotiateLocale(header));
    // Unlike the instances, nginx does not weigh q-values: it takes the first language of ours, as browsers list the most wanted first.
    expect(localeFor('en;q=0.1, ja')).toBe('en');
    expect(localeFor('fr')).toBe(defaultLocale);
  });

  it('answers the API’s 503 envelope with the message of each locale, quoting nginx’s request id', () => {
    for (const code of localeCodes) {
      const body = evaluate(maps.beacon_api_unavailable, code);
      expect(JSON.parse(body), code).toEqual({
        code: ErrorCode.Unavailable,
        message: message(code, 'instancesUnavailable', { id: '${request_id}' }),
        data: null,
      });
    }
    expect(evaluate(maps.beacon_api_unavailable, 'anything else')).toBe(evaluate(maps.beacon_api_unavailable, defaultLocale));
  });

  it('gives nginx no "$" but the request id’s and keeps JSON’s quotes escaped', () => {
    for (const line of apiUnavailableMaps().filter((each) => each.includes('"code"'))) {
      expect(line.replaceAll('${request_id}', '')).not.toMatch(/\$/);
      expect(line).not.toMatch(/[^\\]"code/);
    }
  });
});
