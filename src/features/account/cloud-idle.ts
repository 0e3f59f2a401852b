/**
 * Cloud idling on this page's realtime connection: the status the Steam
 * account page sums up (cloud-idle-status.ts), and the world of the
 * cloud-idling page's store (cloud-idle-store.ts) in the browser. The page's
 * store is a module of its own, so the Steam account page does not load it.
 */
import { hub } from '@/stores/realtime.ts';
import { $isLoggedIn, authCall } from '@/stores/session.ts';
import { cloudIdleStatus } from './cloud-idle-status.ts';
import type { CloudIdleEnvironment } from './cloud-idle-store.ts';

const shown = cloudIdleStatus(hub);

/** `undefined` until the first answer; `null` when cloud idling never started. */
export const $cloudIdle = shown.$status;

/** Follows the page's connection and the status on it; the returned function lets go of both (the connection stays for its other followers). */
export const followCloudIdle = shown.follow;

export const cloudIdleEnvironment: CloudIdleEnvironment = { call: authCall, hub, $isLoggedIn };
