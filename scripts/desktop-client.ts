/**
 * What the scripts that play the desktop client share: the server's address
 * and language from the command line, and sealed calls made as the client
 * makes them.
 */
import { parseArgs } from 'node:util';
import type { ApiRoute, RequestOf, ResponseOf } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { system } from '#contract/identity.ts';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { createSealer, importPublicKey, requestParts } from '../src/lib/api/crypto.ts';

/** `--url` (default http://localhost:4321) and `--lang` (default zh-CN), with the script's own string options. */
export function desktopOptions(options: Record<string, { type: 'string'; default?: string }>) {
  const { values } = parseArgs({
    options: { url: { type: 'string', default: 'http://localhost:4321' }, lang: { type: 'string', default: 'zh-CN' }, ...options },
  });
  const strings = values as Record<string, string | undefined>;
  const lang = localeCodes.find((code) => code === strings.lang) ?? ('zh-CN' satisfies LocaleCode);
  return { values: strings, lang, api: `${(strings.url ?? '').replace(/\/$/, '')}/api` };
}

/** A sealed caller for the server at `api`, in `lang`: each call answers the envelope's code, message and data. */
export async function sealedCaller(api: string, lang: LocaleCode) {
  const { Spki } = (await (await fetch(`${api}${system.publicKey.path}`)).json()).data as { Spki: string };
  const publicKey = await importPublicKey(Spki);
  return async function sealedCall<R extends ApiRoute>(route: R, body: RequestOf<R>): Promise<{ code: number; message: string; data: ResponseOf<R> }> {
    const sealer = await createSealer(publicKey);
    const parts = await requestParts({ body, locale: lang }, sealer);
    const response = await fetch(`${api}${route.path}`, { method: route.method, headers: parts.headers, body: parts.body });
    const text = await response.text();
    const sealed = response.headers.get('content-type')?.startsWith(encryption.contentType);
    return JSON.parse(sealed ? await sealer.open(text) : text);
  };
}
