/**
 * Notifications as WeChat Pay's platform signs them (with the sandbox's
 * platform key), for tests that forge, replay or hand-deliver them.
 */
import { createSign, randomBytes } from 'node:crypto';
import { commerceCalls } from '#contract/commerce.ts';
import { sealResource } from '../../../server/services/wechatpay.ts';
import { sandboxCredentials } from '../../../server/services/wechatpay-sandbox.ts';
import type { TestApp } from './harness.ts';

/** A notification as the platform signs it; `timestamp` and `nonce` may be set to make it stale or a replay. */
export function notification(resource: object, options: { timestamp?: number; nonce?: string; event?: string } = {}) {
  const credentials = sandboxCredentials();
  const body = JSON.stringify({
    id: randomBytes(8).toString('hex'),
    create_time: new Date().toISOString(),
    resource_type: 'encrypt-resource',
    event_type: options.event ?? 'TRANSACTION.SUCCESS',
    resource: sealResource(JSON.stringify({ mchid: credentials.mchid, appid: credentials.appid, ...resource }), credentials.apiV3Key, 'transaction'),
  });
  const timestamp = String(options.timestamp ?? Math.floor(Date.now() / 1000));
  const nonce = options.nonce ?? randomBytes(16).toString('hex');
  const signature = createSign('RSA-SHA256').update(`${timestamp}\n${nonce}\n${body}\n`).sign(credentials.platformPrivateKey, 'base64');
  const headers = {
    'content-type': 'application/json',
    'wechatpay-timestamp': timestamp,
    'wechatpay-nonce': nonce,
    'wechatpay-signature': signature,
    'wechatpay-serial': credentials.platformSerial,
  };
  return { body, headers };
}

export const deliverNotification = (t: TestApp, note: { body: string; headers: Record<string, string> }) =>
  t.app.inject({ method: 'POST', url: `/api${commerceCalls.notify.path}`, headers: note.headers, payload: note.body });
