/**
 * Desktop sign-in approval (contract/device-login.ts): a device request is a
 * row named by the hash of its device code, which only the client holds; a
 * person decides it by its user code. Deciding and polling each lock the row,
 * so a request is decided once and its tokens are handed out once, however
 * the calls race.
 */
import { randomInt } from 'node:crypto';
import { and, eq, gt, lt } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { deviceCalls, deviceLogin } from '#contract/device-login.ts';
import { ErrorCode } from '#contract/errors.ts';
import { sitePageUrl } from '../../config.ts';
import { hashOpaqueToken, newOpaqueToken } from '../../crypto/opaque-tokens.ts';
import { isUniqueViolation } from '../../db/errors.ts';
import type { Database } from '../../db/database.ts';
import { deviceAuthorizations } from '../../db/schema/identity.ts';
import { ApiError, unauthorized } from '../../http/api-error.ts';
import { registerRoute } from '../../http/route.ts';
import { qrSvg } from '../../services/qr-svg.ts';
import { placeOf } from './client-info.ts';
import { recordLogin } from './login-history.ts';
import type { SessionStore } from './sessions.ts';
import type { UserInfoStore } from './users.ts';

function newUserCode(): string {
  const letters = Array.from({ length: 8 }, () => deviceLogin.userCodeAlphabet[randomInt(deviceLogin.userCodeAlphabet.length)]).join('');
  return `${letters.slice(0, 4)}-${letters.slice(4)}`;
}

const notFound = () => new ApiError(ErrorCode.NotFound, 'deviceRequestNotFound');

/** Forgets requests a day after they expired. */
export async function pruneDeviceRequests(db: Database, now = new Date()): Promise<void> {
  await db.delete(deviceAuthorizations).where(lt(deviceAuthorizations.expiresAt, new Date(now.getTime() - 86_400_000)));
}

type Limit = { rateLimit: { max: number; timeWindow: number } };

export function deviceLoginRoutes(app: FastifyInstance, sessions: SessionStore, users: UserInfoStore, limits: { start: Limit; decide: Limit }): void {
  const { db, config } = app;

  registerRoute(
    app,
    deviceCalls.start,
    async ({ body, request }) => {
      const deviceCode = newOpaqueToken();
      const now = Date.now();
      const row = {
        deviceCodeHash: hashOpaqueToken(deviceCode),
        deviceId: body.DeviceId,
        device: [body.DeviceName, body.System].filter(Boolean).join(' · '),
        ip: request.ip,
        place: placeOf(request.ip),
        expiresAt: new Date(now + deviceLogin.lifetimeMs),
      };
      // 20⁸ codes: a clash with a live one is rare, and then another is drawn.
      let userCode = newUserCode();
      for (let tries = 0; ; tries++) {
        try {
          await db.insert(deviceAuthorizations).values({ ...row, userCode });
          break;
        } catch (error) {
          if (!isUniqueViolation(error) || tries >= 4) throw error;
          userCode = newUserCode();
        }
      }
      const page = sitePageUrl(config, body.Lang ?? request.locale, `/account/login?${deviceLogin.queryParameter}`);
      const complete = `${page}=${userCode}`;
      return {
        data: {
          DeviceCode: deviceCode,
          UserCode: userCode,
          VerificationUri: `${page}=`,
          VerificationUriComplete: complete,
          QrSvg: await qrSvg(complete),
          ExpiresIn: deviceLogin.lifetimeMs / 1000,
          Interval: deviceLogin.intervalSeconds,
        },
      };
    },
    limits.start,
  );

  registerRoute(app, deviceCalls.poll, async ({ body }) => {
    const now = new Date();
    const outcome = await db.transaction(async (tx) => {
      const [row] = await tx
        .select()
        .from(deviceAuthorizations)
        .where(eq(deviceAuthorizations.deviceCodeHash, hashOpaqueToken(body.DeviceCode)))
        .for('update');
      if (!row || row.usedAt || row.expiresAt <= now) return new ApiError(ErrorCode.DeviceCodeExpired, 'deviceCodeExpired');
      const mark = (change: Partial<typeof deviceAuthorizations.$inferInsert>) =>
        tx.update(deviceAuthorizations).set(change).where(eq(deviceAuthorizations.deviceCodeHash, row.deviceCodeHash));
      const tooSoon = row.lastPolledAt && now.getTime() - row.lastPolledAt.getTime() < deviceLogin.intervalSeconds * 1000;
      if (row.status === 'denied') {
        await mark({ usedAt: now });
        return new ApiError(ErrorCode.DeviceAccessDenied, 'deviceAccessDenied');
      }
      if (row.status === 'pending' || tooSoon || row.userId === null) {
        await mark({ lastPolledAt: now });
        return tooSoon
          ? new ApiError(ErrorCode.DeviceSlowDown, 'deviceSlowDown')
          : new ApiError(ErrorCode.DeviceAuthorizationPending, 'deviceAuthorizationPending');
      }
      await mark({ usedAt: now, lastPolledAt: now });
      const client = { ip: row.ip, place: row.place, device: row.device, locale: null };
      await recordLogin(tx, row.userId, 'device', true, client);
      return { userId: row.userId, tokens: await sessions.open(tx, row.userId, row.deviceId, client, now) };
    });
    if (outcome instanceof ApiError) throw outcome;
    const User = await users.load(outcome.userId);
    if (!User) throw unauthorized();
    return { data: { ...outcome.tokens, User } };
  });

  const pending = (userCode: string, now: Date) =>
    and(eq(deviceAuthorizations.userCode, userCode), eq(deviceAuthorizations.status, 'pending'), gt(deviceAuthorizations.expiresAt, now));

  registerRoute(
    app,
    deviceCalls.describe,
    async ({ params }) => {
      const [row] = await db.select().from(deviceAuthorizations).where(pending(params.userCode, new Date()));
      if (!row) throw notFound();
      return {
        data: { UserCode: row.userCode, Device: row.device, Place: row.place, CreatedAt: row.createdAt.toISOString(), ExpiresAt: row.expiresAt.toISOString() },
      };
    },
    limits.decide,
  );

  registerRoute(
    app,
    deviceCalls.decide,
    async ({ auth, body }) => {
      const decided = await db
        .update(deviceAuthorizations)
        .set(body.Approve ? { status: 'approved', userId: auth.userId } : { status: 'denied' })
        .where(pending(body.UserCode, new Date()))
        .returning({ status: deviceAuthorizations.status });
      if (decided.length === 0) throw notFound();
      return { data: { Approved: body.Approve }, messageKey: body.Approve ? ('deviceApproved' as const) : ('deviceRefused' as const) };
    },
    limits.decide,
  );
}
