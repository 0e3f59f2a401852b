/** The cdkey form's world in the browser: the API as the logged-in user. */
import { authCall } from '@/stores/session.ts';
import type { RedeemEnvironment } from './redeem-store.ts';

export const browserEnvironment: RedeemEnvironment = { authCall };
