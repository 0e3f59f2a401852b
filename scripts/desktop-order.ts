/**
 * Plays the desktop client making an order before anyone signed in
 * (contract/commerce.ts `createClientOrder`) against a running server:
 * `npm run desktop-order -- --product cloud-idle-monthly [--amount 5000 --target <friend code>] [--url …] [--lang en]`.
 * It prints the order and its /bindorder link, which the client would open in
 * the browser; the browser tests run it to get real links.
 */
import { commerceCalls } from '#contract/commerce.ts';
import { SUCCESS } from '#contract/envelope.ts';
import { desktopOptions, sealedCaller } from './desktop-client.ts';

const { values, api, lang } = desktopOptions({
  product: { type: 'string', default: 'cloud-idle-monthly' },
  amount: { type: 'string' },
  target: { type: 'string' },
});
const sealedCall = await sealedCaller(api, lang);

const made = await sealedCall(commerceCalls.createClientOrder, {
  Product: values.product ?? '',
  Amount: values.amount === undefined ? undefined : Number(values.amount),
  Target: values.target,
});
if (made.code !== SUCCESS) {
  console.error(made.message);
  process.exit(1);
}
console.log(`Order ${made.data.Order.Key}: ${made.data.Order.Item.Product}, waiting for an account until ${made.data.Order.ExpiresAt}`);
console.log(`Open: ${made.data.BindUrl}`);
