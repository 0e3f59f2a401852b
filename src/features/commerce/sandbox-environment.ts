/** The sandbox's phone page's world in the browser: the public API and the address bar (no login: the page plays the customer's phone). */
import { call } from '@/lib/api/client.ts';
import type { PhonePayEnvironment } from './phone-pay-store.ts';

export const sandboxEnvironment: PhonePayEnvironment = {
  call,
  get location() {
    return window.location;
  },
};
