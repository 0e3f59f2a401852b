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
 *   { type: 'cpu' }           → the CPU time this process has used (process.cpuUsage()), and the
 *                               statements it has sent its database (query-count.ts)
 *   { type: 'orders', keys }  → how those orders stand: { states: [{ state, n }], payments }, the
 *                               number of orders in each state and of payments made for them
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
await app.listen({ port: config.PORT, host: config.HOST });
const { port } = app.server.address() as AddressInfo;

type Request = { type: 'cpu' } | { type: 'orders'; keys: string[] };

answerParent<Request>(async (request) => {
  if (request.type === 'cpu') return { ...process.cpuUsage(), statements: statementsSent() };
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
