/**
 * The logged-in users a benchmark's server child makes for its benchmark
 * (`raffle-server.ts`, `pay-server.ts`): each a new account logged in on one
 * device, its session opened with the identity module's own
 * `SessionStore.open`, as a login opens it. That saves the benchmark a login
 * through the API per user, whose password check (scrypt) none of the
 * benchmarks measures.
 */
import type { Database } from '../server/db/database.ts';
import { users } from '../server/db/schema.ts';
import { placeOf, type ClientInfo } from '../server/modules/identity/client-info.ts';
import { SessionStore } from '../server/modules/identity/sessions.ts';

/** Where the sessions say their logins came from. */
const client: ClientInfo = { ip: '127.0.0.1', device: 'bench', place: placeOf('127.0.0.1'), locale: null };

/** Makes `count` users and logs each in; answers their ids and access tokens. */
export async function loggedInUsers(db: Database, count: number): Promise<Array<{ id: number; token: string }>> {
  const sessions = new SessionStore(db, () => {});
  const loggedIn: Array<{ id: number; token: string }> = [];
  for (let from = 0; from < count; from += 1_000) {
    await db.transaction(async (tx) => {
      const batch = Array.from({ length: Math.min(1_000, count - from) }, (_, i) => ({
        phone: `+1555${String(from + i).padStart(7, '0')}`,
        nickname: `Bench ${from + i}`,
      }));
      for (const { id } of await tx.insert(users).values(batch).returning({ id: users.id })) {
        loggedIn.push({ id, token: (await sessions.open(tx, id, `bench-device-${id}`, client)).AccessToken });
      }
    });
  }
  return loggedIn;
}
