/**
 * The shop's server of the payment benchmark (`bench/pay.ts` forks this
 * file): the real app as deployed, configured from the environment the
 * benchmark passes (production, PAYMENT_PROVIDER=wechatpay with the settings
 * of the merchant account the sandbox plays in its own process), listening on
 * HOST and PORT as `npm start` does. It adds what an operator would have set
 * up before customers come: the demo products for sale (`admin product …` on
 * a deployment) and BENCH_USERS customers, each logged in on one device
 * (`accounts.ts`). Then it sends `{ port, users: [{ id, token }] }` to the
 * parent over the IPC channel and answers the parent's requests:
 *   { type: 'cpu' }           → the CPU time this process has used (process.cpuUsage()), the
 *                               statements it has sent its database (query-count.ts), and the
 *                               monotonic clock in µs (what CPU profiles time their samples by)
 *   { type: 'orders', keys }  → how those orders stand: { states: [{ state, n }], payments }, the
 *                               number of orders in each state and of payments made for them
 *   { type: 'statementFloor' } → the CPU time, in ms, of one bare statement (`select 1`) sent
 *                               through the database driver the app holds, 16 at a time
 *                               as the customers' calls overlap: the floor of a statement
 * It also serves `GET /bench/bare`, a route with nothing to do, through every hook the app has:
 * the floor of a request, which the benchmark calls and measures with `{ type: 'cpu' }`.
 */
import type { AddressInfo } from 'node:net';
import { count, eq, inArray } from 'drizzle-orm';
import { buildApp } from '../server/app.ts';
import { loadConfig } from '../server/config.ts';
import { orders, payments, products } from '../server/db/schema.ts';
import { demoProducts } from '../server/modules/commerce/catalogue.ts';
import { loggedInUsers } from './accounts.ts';
import { answerParent, closeWithParent } from './child-server.ts';
import { statementsSent } from './query-count.ts';

if (!process.send) throw new Error('bench/pay-server.ts is started by bench/pay.ts (it needs the IPC channel)');
const userCount = Number(process.env.BENCH_USERS);
if (!(Number.isInteger(userCount) && userCount > 0)) throw new Error('BENCH_USERS says how many logged-in customers the benchmark needs');

const config = loadConfig({ ...process.env });
const app = await buildApp(config);
await app.db.insert(products).values(demoProducts);
const users = await loggedInUsers(app.db, userCount);
app.get('/bench/bare', async () => ({ ok: true }));
await app.listen({ port: config.PORT, host: config.HOST });
const { port } = app.server.address() as AddressInfo;

type Request = { type: 'cpu' } | { type: 'orders'; keys: string[] } | { type: 'statementFloor' };

/** CPU ms per bare statement on the app's own driver (node-postgres's pool or PGlite), after a warm-up. */
async function statementFloor(): Promise<{ msPerStatement: number }> {
  // Drizzle keeps the driver it was given as `$client` (not in the Database type, which is the same for both).
  const client = (app.db as unknown as { $client: { query(text: string): Promise<unknown> } }).$client;
  const batch = () => Promise.all(Array.from({ length: 16 }, () => client.query('select 1')));
  for (let i = 0; i < 50; i++) await batch();
  const batches = 300;
  const before = process.cpuUsage();
  for (let i = 0; i < batches; i++) await batch();
  const used = process.cpuUsage(before);
  return { msPerStatement: (used.user + used.system) / 1000 / (batches * 16) };
}

answerParent<Request>(async (request) => {
  if (request.type === 'cpu') return { ...process.cpuUsage(), statements: statementsSent(), monotonicUs: Number(process.hrtime.bigint() / 1000n) };
  if (request.type === 'statementFloor') return statementFloor();
  const states = await app.db.select({ state: orders.state, n: count() }).from(orders).where(inArray(orders.key, request.keys)).groupBy(orders.state);
  const [{ n }] = await app.db
    .select({ n: count() })
    .from(payments)
    .innerJoin(orders, eq(payments.orderId, orders.id))
    .where(inArray(orders.key, request.keys));
  return { states, payments: n };
});

closeWithParent(app);

process.send({ port, users });
