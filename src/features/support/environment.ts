/** The customer-service button's world in the browser: the session, the signed chat link and the address bar. */
import { $isLoggedIn } from '@/stores/session.ts';
import { serviceLink } from '@/stores/signed-links.ts';
import type { ServiceEnvironment } from './service-store.ts';

export const browserEnvironment: ServiceEnvironment = {
  session: { $isLoggedIn },
  serviceLink,
  get location() {
    return window.location;
  },
};
