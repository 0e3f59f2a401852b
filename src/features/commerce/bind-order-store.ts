/**
 * /bindorder's logic, free of any framework: the signed link the desktop
 * client opened (its address's query), whom it would be linked to, and
 * linking it — once the customer confirms — after which the page offers to
 * pay or view the order. A forged, expired or used link is refused in the
 * server's words.
 */
import { atom, computed, type ReadableAtom } from 'nanostores';
import { BindLink, commerceCalls, type Order } from '#contract/commerce.ts';
import type { UserInfo } from '#contract/identity.ts';
import type { Call } from '@/lib/api/client.ts';
import { createAction } from '@/stores/action.ts';

export interface BindOrderEnvironment {
  /** Calls as the logged-in user. */
  authCall: Call;
  session: { $isLoggedIn: ReadableAtom<boolean>; $user: ReadableAtom<UserInfo | null> };
  location: { readonly search: string };
}

export function createBindOrder(env: BindOrderEnvironment) {
  const parsed = BindLink.safeParse(Object.fromEntries(new URLSearchParams(env.location.search)));
  /** The signed link; null when the address lacks part of it. */
  const link = parsed.success ? parsed.data : null;
  const action = createAction();
  /** The order, once linked to this account. */
  const $bound = atom<Order | null>(null);
  /** Whom the order would be linked to; null while nobody is logged in. */
  const $account = computed([env.session.$isLoggedIn, env.session.$user], (loggedIn, user) => (loggedIn && user ? user.NickName : null));

  async function bind(): Promise<void> {
    if (!link || action.$busy.get()) return;
    const order = await action.run(() => env.authCall(commerceCalls.bindOrder, { body: link }));
    if (order) $bound.set(order);
  }

  return { link, $account, $bound, $busy: action.$busy, $notice: action.$notice, bind };
}
