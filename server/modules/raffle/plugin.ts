/**
 * The raffle module (contract/raffle.ts): its calls under
 * /komaasharu/raffle with their cache times (`raffleCacheMs`), the scheduled draws (a pg-boss
 * schedule, so a draw due while the server was down happens when it is back),
 * the pushes that keep open raffle pages live, the covers, and the demo
 * raffles, and the messages that tell winners (winner-messages.ts). Prizes are granted by the commerce module
 * (`app.commerce`), inside the claim's or the instant draw's transaction.
 */
import fp from 'fastify-plugin';
import { hubEvents } from '#contract/realtime.ts';
import { raffleCacheMs, raffleCalls, raffleCoversPath } from '#contract/raffle.ts';
import { cacheForCaller, publicFor } from '../../http/cache-control.ts';
import { apiBase } from '../../config.ts';
import { serverActor } from '../../db/audit.ts';
import { registerRoute } from '../../http/route.ts';
import { serveStore } from '../../services/file-store.ts';
import { seedDemoRaffles } from './demo.ts';
import { claimPrize, drawRaffle, drawsJob, dueDraws, unclaimedPrizes, waitingForValue, type PrizeGranter } from './draws.ts';
import { drawInstant, instantHistory, rotateSeed } from './instant.ts';
import { findRaffle, ownResult, rafflePage, register, registrationCount, toInfo, winnerPage } from './raffles.ts';
import { messageJob, queueDue, queueJob, sendQueued, type WinnerMessage } from './winner-messages.ts';

/** Live registration counts go out at most this often per raffle: a rush of registrations is one push a second, not one each. */
const countPushMs = 1_000;

export default fp(
  async (app) => {
    const { db, jobs } = app;
    const covers = app.uploads.store('raffles');
    const coverBase = `${apiBase(app.config)}${raffleCoversPath}/`;
    const coverUrl = (name: string) => coverBase + name;
    serveStore(app, covers, raffleCoversPath);

    if (app.config.DEMO_DATA && (await seedDemoRaffles(db))) app.log.info('Seeded the demo raffles');

    const grantPrize: PrizeGranter = async (tx, userId, grant) => {
      if (grant.Kind === 'wallet') await app.commerce.credit(tx, userId, grant.Amount, 'raffle');
      else await app.commerce.extendMembership(tx, userId, grant.Days);
    };

    // A deleted account loses the prizes it has not claimed.
    app.accountEnding.add({ losses: async (userId) => ({ UnclaimedPrizes: await unclaimedPrizes(db, userId) }) });

    const pendingCounts = new Map<number, ReturnType<typeof setTimeout>>();
    const pushCountSoon = (raffleId: number) => {
      if (pendingCounts.has(raffleId)) return;
      const timer = setTimeout(() => {
        pendingCounts.delete(raffleId);
        registrationCount(db, raffleId)
          .then((count) => app.hub.broadcast(hubEvents.raffleCount, [{ RaffleId: raffleId, Count: count }]))
          .catch((error: unknown) => app.log.warn({ err: error }, 'could not push a raffle registration count'));
      }, countPushMs);
      timer.unref();
      pendingCounts.set(raffleId, timer);
    };
    app.addHook('onClose', async () => {
      for (const timer of pendingCounts.values()) clearTimeout(timer);
    });

    const announceDraw = (raffleId: number) =>
      app.hub
        .broadcast(hubEvents.raffleDrawn, [{ RaffleId: raffleId }])
        .catch((error: unknown) => app.log.warn({ err: error }, 'could not push a raffle draw'));

    registerRoute(app, raffleCalls.info, async ({ params, reply }) => {
      reply.header('cache-control', publicFor(raffleCacheMs.info));
      return { data: toInfo(await findRaffle(db, params.id), coverUrl) };
    });

    registerRoute(app, raffleCalls.list, async ({ params, reply }) => {
      reply.header('cache-control', publicFor(raffleCacheMs.info));
      return { data: await rafflePage(db, coverUrl, params.a, params.b) };
    });

    registerRoute(app, raffleCalls.winners, async ({ params, reply }) => {
      await findRaffle(db, params.id);
      reply.header('cache-control', publicFor(raffleCacheMs.result));
      return { data: await winnerPage(db, params.id, params.a, params.b) };
    });

    registerRoute(app, raffleCalls.isRegistration, async ({ auth, params, reply }) => {
      cacheForCaller(reply, raffleCacheMs.registration);
      return { data: (await ownResult(db, params.id, auth.userId)).Number !== null };
    });

    registerRoute(app, raffleCalls.participationNumber, async ({ auth, params, reply }) => {
      cacheForCaller(reply, raffleCacheMs.registration);
      return { data: (await ownResult(db, params.id, auth.userId)).Number };
    });

    registerRoute(app, raffleCalls.registrationCount, async ({ params, reply }) => {
      cacheForCaller(reply, raffleCacheMs.info);
      return { data: await registrationCount(db, params.id) };
    });

    registerRoute(app, raffleCalls.registration, async ({ auth, params }) => {
      const { registration, fresh } = await register(db, params.id, auth.userId);
      if (fresh) pushCountSoon(params.id);
      return { data: registration, messageKey: 'raffleRegistered' as const, messageParams: { number: String(registration.Number) } };
    });

    registerRoute(app, raffleCalls.result, async ({ auth, params, reply }) => {
      cacheForCaller(reply, raffleCacheMs.result);
      return { data: await ownResult(db, params.id, auth.userId) };
    });

    registerRoute(app, raffleCalls.claim, async ({ auth, params }) => ({
      data: await claimPrize(db, grantPrize, params.id, auth.userId),
      messageKey: 'prizeClaimedNow' as const,
    }));

    registerRoute(app, raffleCalls.forthwithRaffle, async ({ auth, params, body }) => ({
      data: await drawInstant(db, grantPrize, params.id, auth.userId, body.ClientSeed),
    }));

    registerRoute(app, raffleCalls.forthwithRaffleResults, async ({ auth, params }) => ({ data: await instantHistory(db, params.id, auth.userId) }));

    registerRoute(app, raffleCalls.rotateSeed, async ({ auth, params }) => ({ data: await rotateSeed(db, params.id, auth.userId) }));

    const toldWaiting = new Set<number>();
    // Every minute, draws that are due; one instance at a time (singleton), and a draw is made once however often it is asked for.
    await jobs.createQueue(drawsJob, { policy: 'singleton', retryLimit: 0 });
    await jobs.schedule(drawsJob, '* * * * *');
    await jobs.work(
      drawsJob,
      app.metrics.countingFailures(drawsJob, async () => {
        let drew = false;
        for (const { id } of await dueDraws(db)) {
          const outcome = await drawRaffle(db, serverActor('scheduled draw'), id);
          if (outcome.drawn) {
            drew = true;
            app.log.info({ raffle: id }, 'drew a raffle');
            await announceDraw(id);
          }
        }
        for (const { id } of await waitingForValue(db)) {
          if (toldWaiting.has(id)) continue;
          toldWaiting.add(id);
          app.log.warn({ raffle: id }, 'a raffle is due but has no public value: npm run admin -- raffle value <id> <value>');
        }
        // The winners of the draws just made are told now rather than at the next minute's look.
        if (drew) await queueDue(db, jobs);
      }),
    );

    // Every minute, the winners' messages that are due, however the draw was made (here, on another instance, by the CLI).
    await jobs.createQueue(queueJob, { policy: 'singleton', retryLimit: 0 });
    await jobs.schedule(queueJob, '* * * * *');
    await jobs.work(
      queueJob,
      app.metrics.countingFailures(queueJob, () => queueDue(db, jobs)),
    );
    // A provider that does not take a message is asked again after 1, 2, 4 … minutes, up to an hour apart, for about half a day.
    await jobs.createQueue(messageJob, { retryLimit: 16, retryDelay: 60, retryBackoff: true, retryDelayMax: 3600 });
    await jobs.work<WinnerMessage>(
      messageJob,
      // Ten at a time, fetched back to back while there are more. A batch with a failed send fails whole and is tried
      // again, and the messages it did send are not sent again (sendQueued).
      { batchSize: 10, burstWhenBatchFull: true },
      app.metrics.countingFailures(messageJob, async (batch) => {
        const failures = [];
        for (const job of batch) {
          try {
            await sendQueued(app, job.data);
          } catch (error) {
            failures.push(error);
          }
        }
        if (failures.length > 0) throw new AggregateError(failures, `${failures.length} of ${batch.length} raffle winner messages were not sent`);
      }),
    );
  },
  { name: 'raffle', dependencies: ['database', 'hub', 'commerce', 'identity', 'metrics', 'uploads'] },
);
