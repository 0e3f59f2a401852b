/** Run by slow-start.test.ts in a slowed-down process: the API tests' `startApp` on DATABASE_URL, then one readiness check. */
import { system } from '#contract/identity.ts';
import { startApp } from './api/harness.ts';

const t = await startApp({ DATABASE_URL: process.env.DATABASE_URL! });
const { status, body } = await t.call(system.ready);
console.log(`ready: ${status} ${JSON.stringify(body.data)}`);
await t.close();
