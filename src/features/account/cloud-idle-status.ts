/**
 * The cloud-idling status a page shows: asked of the hub whenever the
 * connection (re)connects, then kept up to date by the server's pushes. The
 * hub comes in as an argument, so tests drive it in Node; the Steam account
 * page follows the page's hub (cloud-idle.ts), the cloud-idling page's store
 * (cloud-idle-store.ts) the one it is handed.
 */
import { atom, type ReadableAtom } from 'nanostores';
import { hubEvents, hubMethods, type CloudIdleStatus } from '#contract/realtime.ts';
import type { HubProblem, HubState } from '@/lib/realtime/hub-client.ts';

/** What cloud idling uses of the page's realtime connection (stores/realtime.ts `hub`). */
export interface CloudIdleHub {
  $state: ReadableAtom<HubState>;
  $problem: ReadableAtom<HubProblem | null>;
  /** Wants the connection until the returned function is called. */
  follow(): () => void;
  /** Connects again after the connection gave up; refused unless disconnected. */
  start(): Promise<void>;
  on(event: typeof hubEvents.cloudIdleStatus, handler: (status: CloudIdleStatus) => void): () => void;
  invoke(method: typeof hubMethods.getCloudIdleStatus): Promise<CloudIdleStatus | null>;
}

/** The status on `hub`, and following it: `follow` starts, the function it returns lets go (the connection stays for its other followers). */
export function cloudIdleStatus(hub: Pick<CloudIdleHub, '$state' | 'follow' | 'on' | 'invoke'>) {
  /** `undefined` until the first answer; `null` when cloud idling never started. */
  const $status = atom<CloudIdleStatus | null | undefined>(undefined);

  /** Keeps the newer of two statuses, so a slow answer never replaces a push that overtook it. */
  function show(status: CloudIdleStatus | null): void {
    const shown = $status.get();
    if (shown && (!status || Date.parse(shown.UpdatedAt) > Date.parse(status.UpdatedAt))) return;
    $status.set(status);
  }

  function follow(): () => void {
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

  return { $status, follow };
}
