/**
 * Cloud idling on this page's realtime connection (the logic is in
 * cloud-idle-store.ts): the status the Steam account page sums up, and the
 * world of the cloud-idling page's store in the browser.
 */
import { hub } from '@/stores/realtime.ts';
import { $isLoggedIn, authCall } from '@/stores/session.ts';
import { cloudIdleStatus, type CloudIdleEnvironment } from './cloud-idle-store.ts';

const shown = cloudIdleStatus(hub);

/** `undefined` until the first answer; `null` when cloud idling never started. */
export const $cloudIdle = shown.$status;

/** Follows the page's connection and the status on it; the returned function lets go of both (the connection stays for its other followers). */
export const followCloudIdle = shown.follow;

export const cloudIdleEnvironment: CloudIdleEnvironment = { call: authCall, hub, $isLoggedIn };
