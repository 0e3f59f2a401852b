/** The pay page's world in the browser: the API as the logged-in user, the live order, the address bar, the screen and the clock. */
import { followOrder } from '@/stores/orders.ts';
import { authCall } from '@/stores/session.ts';
import type { PayEnvironment } from './pay-store.ts';

/** A phone-sized screen or one worked by touch: paying in the provider's app on the device itself leads there, the codes to scan from another device follow. */
const phoneScreen = '(max-width: 40rem), (hover: none) and (pointer: coarse)';

export const payEnvironment: PayEnvironment = {
  authCall,
  followOrder,
  get location() {
    return window.location;
  },
  phoneScreen: () => matchMedia(phoneScreen).matches,
  setTimer(callback, ms) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  now: () => Date.now(),
};
