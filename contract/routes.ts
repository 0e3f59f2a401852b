/**
 * Every call of the contract in one list, by group: what the API document
 * (`openapi.ts`) is made from. A test holds the server to it: every route the
 * server registers is here, so the document cannot miss one.
 */
import type { ApiRoute } from './api.ts';
import { accountCalls } from './account.ts';
import { activationCalls } from './activation.ts';
import { admin } from './admin.ts';
import { agreementCalls } from './agreements.ts';
import { commerceCalls } from './commerce.ts';
import { consoleCalls } from './console.ts';
import { alipaySandbox, dev, paymentSandbox } from './dev.ts';
import { deviceCalls } from './device-login.ts';
import { donationCalls } from './donation.ts';
import { externalLogin } from './external-login.ts';
import { identity, support, system } from './identity.ts';
import { invoiceCalls } from './invoices.ts';
import { idleGameCalls } from './idle-games.ts';
import { pluginCalls } from './plugins.ts';
import { raffleCalls } from './raffle.ts';
import { statusCalls } from './status.ts';

/** One group of calls: its tag in the document (stable: links point at it), and whether only the development stand-ins serve it. */
export interface RouteGroup {
  tag: string;
  calls: Record<string, ApiRoute>;
  devOnly?: true;
}

export const routeGroups: readonly RouteGroup[] = [
  { tag: 'system', calls: system },
  { tag: 'identity', calls: identity },
  { tag: 'external-login', calls: externalLogin },
  { tag: 'device-login', calls: deviceCalls },
  { tag: 'account', calls: accountCalls },
  { tag: 'support', calls: support },
  { tag: 'idle-games', calls: idleGameCalls },
  { tag: 'commerce', calls: commerceCalls },
  { tag: 'invoices', calls: invoiceCalls },
  { tag: 'agreements', calls: agreementCalls },
  { tag: 'activation', calls: activationCalls },
  { tag: 'donation', calls: donationCalls },
  { tag: 'raffle', calls: raffleCalls },
  { tag: 'plugins', calls: pluginCalls },
  { tag: 'status', calls: statusCalls },
  { tag: 'console', calls: consoleCalls },
  { tag: 'admin', calls: admin },
  { tag: 'dev', calls: dev, devOnly: true },
  { tag: 'dev-wechatpay-sandbox', calls: paymentSandbox, devOnly: true },
  { tag: 'dev-alipay-sandbox', calls: alipaySandbox, devOnly: true },
];

/** One call with its group's tag and its own name in the group (`account.sendOwnCode`). */
export interface ListedRoute {
  tag: string;
  name: string;
  route: ApiRoute;
  devOnly: boolean;
}

/** Every call, in the groups' order; the development stand-ins' only when `withDev`. */
export function listedRoutes(withDev: boolean): ListedRoute[] {
  return routeGroups
    .filter((group) => withDev || !group.devOnly)
    .flatMap((group) => Object.entries(group.calls).map(([name, route]) => ({ tag: group.tag, name, route, devOnly: group.devOnly ?? false })));
}
