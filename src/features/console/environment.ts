/** The console's world in the browser: the page's one console, its calls with the cookie and, to sign in, as the logged-in customer. */
import { call } from '@/lib/api/client.ts';
import { $isLoggedIn, authCall } from '@/stores/session.ts';
import { createConsole } from './console-store.ts';

export const browserConsole = createConsole({ call, authCall, isLoggedIn: () => $isLoggedIn.get(), now: () => Date.now() });
