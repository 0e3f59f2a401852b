/** The cdkey batch of a fresh embedded database: keys worth some wallet credit, so a newcomer can redeem one at once (docs/tour.md). */
export const demoBatch = {
  name: 'demo',
  count: 20,
  grant: { Kind: 'wallet' as const, Amount: 1_000 },
  expiresAt: null,
};
