/** The raffle pages' world in the browser: the API (public calls, and the user's own with their token) and the clock. */
import { call } from '@/lib/api/client.ts';
import { authCall } from '@/stores/session.ts';
import type { RaffleBoardEnvironment } from './raffle-board-store.ts';

export const browserEnvironment: RaffleBoardEnvironment = {
  call,
  authCall,
  setTimer(callback, ms) {
    const timer = setTimeout(callback, ms);
    return () => clearTimeout(timer);
  },
  now: () => Date.now(),
};
