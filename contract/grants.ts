/** What a cdkey (activation.ts) or a raffle prize (raffle.ts) can grant to an account. */
import * as z from 'zod/mini';
import { Minor } from './fields.ts';

/** Fen to the wallet. */
export const WalletGrant = z.object({ Kind: z.literal('wallet'), Amount: Minor });

/** Days of cloud idling. */
export const MembershipGrant = z.object({ Kind: z.literal('membership'), Days: z.int().check(z.positive(), z.maximum(3660)) });
