/**
 * What deleting an account takes with it in other modules. A module that keeps
 * something of value for a user (commerce: the wallet, the plan, auto-renewal
 * agreements; raffle: prizes won and not yet claimed) adds a part here, so the
 * identity module can state the losses before the customer confirms, and end
 * what lives at a provider before the account goes — without importing them.
 */
import type { DeletionLosses } from '#contract/account.ts';

export interface AccountEndingPart {
  /** What the user would lose in this module, for the confirmation. */
  losses(userId: number): Promise<Partial<DeletionLosses>>;
  /** Ends what lives outside our database (a contract at the payment provider); a failure stops the deletion before anything is deleted. */
  end?(userId: number): Promise<void>;
}

export interface AccountEnding {
  add(part: AccountEndingPart): void;
  losses(userId: number): Promise<DeletionLosses>;
  /** Runs every part's `end`, in the order the parts were added. */
  end(userId: number): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    accountEnding: AccountEnding;
  }
}

const nothingLost: DeletionLosses = { Wallet: 0, PlanUntil: null, Agreements: 0, UnclaimedPrizes: 0 };

export function accountEnding(): AccountEnding {
  const parts: AccountEndingPart[] = [];
  return {
    add: (part) => void parts.push(part),
    async losses(userId) {
      const found = await Promise.all(parts.map((part) => part.losses(userId)));
      return Object.assign({ ...nothingLost }, ...found) as DeletionLosses;
    },
    async end(userId) {
      for (const part of parts) await part.end?.(userId);
    },
  };
}
