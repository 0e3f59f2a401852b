/**
 * The cloud-idling status a page shows: asked of the hub whenever the
 * connection (re)connects, then kept up to date by the server's pushes.
 */
import { atom } from 'nanostores';
import { hubEvents, hubMethods, type CloudIdleStatus } from '#contract/realtime.ts';
import { hub } from '@/stores/realtime.ts';

/** `undefined` until the first answer; `null` when cloud idling never started. */
export const $cloudIdle = atom<CloudIdleStatus | null | undefined>(undefined);

/** Keeps the newer of two statuses, so a slow answer never replaces a push that overtook it. */
function show(status: CloudIdleStatus | null): void {
  const shown = $cloudIdle.get();
  if (shown && (!status || Date.parse(shown.UpdatedAt) > Date.parse(status.UpdatedAt))) return;
  $cloudIdle.set(status);
}

/** Follows the page's connection and the status on it; the returned function lets go of both (the connection stays for its other followers). */
export function followCloudIdle(): () => void {
  const stopPushes = hub.on(hubEvents.cloudIdleStatus, show);
  const stopAsking = hub.$state.subscribe((state) => {
    if (state !== 'Connected') return;
    hub.invoke(hubMethods.getCloudIdleStatus).then(show, () => {
      // The connection dropped mid-call (the next connect asks again), or the answer broke the contract: nothing to show.
    });
  });
  const release = hub.follow();
  return () => {
    stopPushes();
    stopAsking();
    release();
  };
}
