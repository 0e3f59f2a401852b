/**
 * Plays the desktop client's sign-in (contract/device-login.ts) against a
 * running server: `npm run desktop-sign-in [-- --url http://localhost:4321 --lang en]`.
 * It prints the code, the page to approve it at and its QR code, polls as the
 * client does, and ends with who it is signed in as (exit 0), or that the
 * request was refused (exit 1) or expired (exit 2). The browser tests run it
 * to approve and refuse real requests.
 */
import { hostname, type } from 'node:os';
import { parseArgs } from 'node:util';
import QRCode from 'qrcode';
import type { ApiRoute, RequestOf, ResponseOf } from '#contract/api.ts';
import { encryption } from '#contract/crypto.ts';
import { deviceCalls } from '#contract/device-login.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { ErrorCode } from '#contract/errors.ts';
import { system } from '#contract/identity.ts';
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { createSealer, importPublicKey, requestParts } from '../src/lib/api/crypto.ts';

const { values } = parseArgs({ options: { url: { type: 'string', default: 'http://localhost:4321' }, lang: { type: 'string', default: 'zh-CN' } } });
const api = `${values.url.replace(/\/$/, '')}/api`;
const lang = localeCodes.find((code) => code === values.lang) ?? ('zh-CN' satisfies LocaleCode);

const { Spki } = (await (await fetch(`${api}${system.publicKey.path}`)).json()).data as { Spki: string };
const publicKey = await importPublicKey(Spki);

/** One sealed call, as the desktop client makes it: the envelope's code, message and data. */
async function sealedCall<R extends ApiRoute>(route: R, body: RequestOf<R>): Promise<{ code: number; message: string; data: ResponseOf<R> }> {
  const sealer = await createSealer(publicKey);
  const parts = await requestParts({ body, locale: lang }, sealer);
  const response = await fetch(`${api}${route.path}`, { method: route.method, headers: parts.headers, body: parts.body });
  const text = await response.text();
  const sealed = response.headers.get('content-type')?.startsWith(encryption.contentType);
  return JSON.parse(sealed ? await sealer.open(text) : text);
}

const started = await sealedCall(deviceCalls.start, {
  DeviceId: `desktop-${hostname()}`.slice(0, 64).padEnd(8, '0'),
  DeviceName: hostname().slice(0, 64) || 'desktop',
  System: type(),
  Lang: lang,
});
if (started.code !== SUCCESS) throw new Error(`The request was refused: ${started.message}`);
const request = started.data;
console.log(await QRCode.toString(request.VerificationUriComplete, { type: 'terminal', small: true }));
console.log(`Code: ${request.UserCode}`);
console.log(`Open: ${request.VerificationUriComplete}`);

let interval = request.Interval * 1000;
for (;;) {
  await new Promise((resolve) => setTimeout(resolve, interval));
  const answer = await sealedCall(deviceCalls.poll, { DeviceCode: request.DeviceCode });
  if (answer.code === SUCCESS) {
    console.log(`Signed in as ${answer.data.User.NickName} (user ${answer.data.User.Id})`);
    process.exit(0);
  }
  if (answer.code === ErrorCode.DeviceSlowDown) interval += 5000;
  else if (answer.code !== ErrorCode.DeviceAuthorizationPending) {
    console.log(answer.message);
    process.exit(answer.code === ErrorCode.DeviceAccessDenied ? 1 : 2);
  }
}
