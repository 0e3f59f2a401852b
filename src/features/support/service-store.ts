/**
 * The customer-service button's logic, free of any framework: logged in, it
 * fetches the chat's signed address and goes there, and a refusal shows the
 * server's words; logged out, it says the customer must log in first.
 */
import { onMount, type ReadableAtom } from 'nanostores';
import { createAction } from '@/stores/action.ts';

export interface ServiceEnvironment {
  session: { $isLoggedIn: ReadableAtom<boolean> };
  /** The chat's signed address (stores/signed-links.ts keeps it per login); throws with the server's refusal. */
  serviceLink(): Promise<string>;
  location: { assign(url: string): void };
}

export function createCustomerService(env: ServiceEnvironment) {
  const action = createAction();
  // The session reads the stored login while something follows it: while the button is shown, this does.
  onMount(action.$notice, () => env.session.$isLoggedIn.listen(() => {}));

  /** Opens the chat; resolves to 'needsLogin' when nobody is logged in, for the island to ask. */
  async function open(): Promise<'needsLogin' | undefined> {
    if (!env.session.$isLoggedIn.get()) return 'needsLogin';
    if (action.$busy.get()) return;
    const link = await action.run(env.serviceLink);
    if (link) env.location.assign(link);
  }

  return { $busy: action.$busy, $notice: action.$notice, open };
}
