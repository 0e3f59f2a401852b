/**
 * The cloud-idling page: the status (cloud-idle-status.ts), followed while the
 * page shows it; the connection's state and problem and the way to connect
 * again; and the games chosen for idling, once logged in. The hub and the
 * login come in as an environment (cloud-idle.ts has the page's), so tests
 * drive them in Node.
 */
import { atom, onMount, type ReadableAtom } from 'nanostores';
import { idleGameCalls, type IdleGame } from '#contract/idle-games.ts';
import type { Call } from '@/lib/api/client.ts';
import { cloudIdleStatus, type CloudIdleHub } from './cloud-idle-status.ts';

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

  // Loaded once logged in. A failure leaves the list out: a lost login is the page's 401 handler's to deal with.
  const load = () =>
    env.call(idleGameCalls.list).then(
      (games) => $games.set(games),
      () => {},
    );
  onMount($games, () =>
    env.$isLoggedIn.subscribe((loggedIn) => {
      if (loggedIn) void load();
    }),
  );

  /** Connects again after the connection gave up; a refusal changes nothing (it shows in the state already). */
  const reconnect = () => void env.hub.start().catch(() => {});

  return { $status: status.$status, $state: env.hub.$state, $problem: env.hub.$problem, $isLoggedIn: env.$isLoggedIn, $games, reconnect };
}
