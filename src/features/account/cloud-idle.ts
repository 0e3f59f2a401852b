/**
 * The cloud-idling status a page shows: asked of the hub whenever the
 * connection (re)connects, then kept up to date by the server's pushes.
 */
import { atom } from 'nanostores';
import { hubEvents, hubMethods, type CloudIdleStatus } from '../../../contract/realtime.ts';
import { hub } from '../../stores/realtime.ts';

/** `undefined` until the first answer; `null` when cloud idling never started. */
export const $cloudIdle = atom<CloudIdleStatus | null | undefined>(undefined);

/** Keeps the newer of two statuses, so a slow answer never replaces a push that overtook it. */
function show(status: CloudIdleStatus | null): void {
  const shown = $cloudIdle.get();
  if (shown && (!status || Date.parse(shown.UpdatedAt) > Date.parse(status.UpdatedAt))) return;
  $cloudIdle.set(status);
}

/** Connects and follows the status; the returned function stops both. */
export function followCloudIdle(): () => void {
  const { cloudIdleStatus } = hubEvents;
  const { getCloudIdleStatus } = hubMethods;
  // What arrives is checked against the contract: a page never shows a half-formed status.
  const stopPushes = hub.on(cloudIdleStatus.name, (...args: unknown[]) => {
    const parsed = cloudIdleStatus.arguments.safeParse(args);
    if (parsed.success) show(parsed.data[0]);
  });
  const stopAsking = hub.$state.subscribe((state) => {
    if (state !== 'Connected') return;
    hub.invoke(getCloudIdleStatus.name).then(
      (result) => {
        const parsed = getCloudIdleStatus.result.safeParse(result);
        if (parsed.success) show(parsed.data);
      },
      () => {
        // The connection dropped mid-call: the next connect asks again.
      },
    );
  });
  void hub.start().catch(() => {
    // Already connecting or connected: nothing to do.
  });
  return () => {
    stopPushes();
    stopAsking();
    void hub.stop();
  };
}
