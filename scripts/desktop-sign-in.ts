/**
 * Plays the desktop client's sign-in (contract/device-login.ts) against a
 * running server: `npm run desktop-sign-in [-- --url http://localhost:4321 --lang en]`.
 * It prints the code, the page to approve it at and its QR code, polls as the
 * client does, and ends with who it is signed in as (exit 0), or that the
 * request was refused (exit 1) or expired (exit 2). The browser tests run it
 * to approve and refuse real requests.
 */
import { hostname, type } from 'node:os';
import QRCode from 'qrcode';
import { deviceCalls } from '#contract/device-login.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { ErrorCode } from '#contract/errors.ts';
import { desktopOptions, sealedCaller } from './desktop-client.ts';

const { api, lang } = desktopOptions({});
const sealedCall = await sealedCaller(api, lang);

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
