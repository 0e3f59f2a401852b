/**
 * The donation module (contract/donation.ts): giving part of the wallet to
 * the project, the user's own donations, and the sponsor page's list. The
 * wallet debit is the commerce module's (`app.commerce.donate`), made inside
 * the donation's transaction.
 */
import fp from 'fastify-plugin';
import { donationCalls } from '#contract/donation.ts';
import { registerRoute } from '../../http/route.ts';
import { donate, ownDonations, removeName, sponsorList, toDonation } from './donations.ts';

/** The sponsor list may be a minute old: browsers and caches in front of the API keep it that long. */
const sponsorListMaxAgeSeconds = 60;

export default fp(
  async (app) => {
    const { db } = app;

    registerRoute(app, donationCalls.donate, async ({ auth, body }) => {
      const { row, balance } = await donate(db, app.commerce.donate, auth.userId, body.Amount, body.Name);
      return { data: { Donation: toDonation(row), Balance: balance }, messageKey: 'donated' as const };
    });

    registerRoute(app, donationCalls.mine, async ({ auth }) => ({ data: await ownDonations(db, auth.userId) }));

    registerRoute(app, donationCalls.removeName, async ({ auth, params }) => ({ data: await removeName(db, auth.userId, params.id) }));

    registerRoute(app, donationCalls.sponsors, async ({ reply }) => {
      reply.header('cache-control', `public, max-age=${sponsorListMaxAgeSeconds}`);
      return { data: await sponsorList(db) };
    });
  },
  { name: 'donation', dependencies: ['database', 'commerce'] },
);
