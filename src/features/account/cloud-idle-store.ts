/**
 * The cloud idling a page shows: the status, asked of the hub whenever the
 * connection (re)connects and then kept up to date by the server's pushes;
 * and, on the cloud-idling page, the connection's state and problem, the way
 * to connect again, and the games chosen for idling. The hub and the login
 * come in as an environment (cloud-idle.ts has the page's), so tests drive
 * them in Node.
 */
import { atom, onMount, type ReadableAtom } from 'nanostores';
import { idleGameCalls, type IdleGame } from '#contract/idle-games.ts';
import { hubEvents, hubMethods, type CloudIdleStatus } from '#contract/realtime.ts';
import type { Call } from '@/lib/api/client.ts';
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

export interface CloudIdleEnvironment {
  /** Calls a route as the logged-in user. */
  call: Call;
  hub: CloudIdleHub;
  $isLoggedIn: ReadableAtom<boolean>;
}

/** The cloud-idling page: the status followed while it is shown, the connection, and the games chosen for idling. */
export function createCloudIdle(env: CloudIdleEnvironment) {
  const status = cloudIdleStatus(env.hub);
  /** The games chosen for idling; null until loaded, and left so when loading fails (the page then leaves the section out). */
  const $games = atom<IdleGame[] | null>(null);

  onMount(status.$status, status.follow);

  // Loaded once logged in; a lost login is the page's 401 handler's to deal with.
  onMount($games, () =>
    env.$isLoggedIn.subscribe((loggedIn) => {
      if (loggedIn)
        env.call(idleGameCalls.list).then(
          (games) => $games.set(games),
          () => {},
        );
    }),
  );

  /** Connects again after the connection gave up; a refusal changes nothing (it shows in the state already). */
  const reconnect = () => void env.hub.start().catch(() => {});

  return { $status: status.$status, $state: env.hub.$state, $problem: env.hub.$problem, $isLoggedIn: env.$isLoggedIn, $games, reconnect };
}
