/**
 * What the server counts for Prometheus (docs/metrics.md): requests by route,
 * method and status with their latency, hub connections by transport, the job
 * queues and failed jobs, payment outcomes, limit refusals, and Node's process
 * metrics. Served only when METRICS_PORT is set, by a listener of its own
 * (METRICS_HOST, loopback by default), never on the public port. Each app has
 * its own registry: an instance reports its own numbers, and one process (a
 * test) may build several apps.
 *
 * Modules report through `app.metrics`, never through prom-client. Without
 * METRICS_PORT nothing is counted: `app.metrics` does nothing and no hook runs
 * per request.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { Job } from 'pg-boss';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { StartupError } from '../startup-error.ts';

/** The order states that settle a payment, as counted. */
export type PaymentOutcome = 'paid' | 'failed' | 'closed' | 'refunded';

/** A pg-boss job handler. */
type JobHandler<T> = (jobs: Job<T>[]) => Promise<unknown>;

export interface Metrics {
  /** A payment reached an outcome. Called once the transaction that recorded it has committed, so a rolled-back one is never counted. */
  paymentSettled(outcome: PaymentOutcome, method: string | null): void;
  /** A limit refused the request: `global` or `route` (the per-address rate limits), or the message key of a limit of our own. */
  limitRefused(request: FastifyRequest, limit: string): void;
  /** A message was handed to its provider (`sent`), or the provider did not take it (`refused`, with the refusal: messages/messenger.ts). */
  messageSent(channel: string, provider: string, kind: string, outcome: string): void;
  /** The job handler, each of its failures (a throw: pg-boss retries the job, or gives it up) counted under its queue. */
  countingFailures<T>(queue: string, handler: JobHandler<T>): JobHandler<T>;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
    /** Where Prometheus scrapes this instance (`http://host:port/metrics`); null without METRICS_PORT. */
    metricsUrl: string | null;
  }
}

/** The route's pattern (`/api/commerce/v1/order/:key`), never the URL asked for: the number of series stays bounded. */
const routeOf = (request: FastifyRequest): string => request.routeOptions.url ?? 'unmatched';

const notCounting: Metrics = {
  paymentSettled() {},
  limitRefused() {},
  messageSent() {},
  countingFailures: (_queue, handler) => handler,
};

function counting(app: FastifyInstance, registry: Registry): Metrics {
  const registers = [registry];
  collectDefaultMetrics({ register: registry });

  const requests = new Counter({
    name: 'beacon_http_requests_total',
    help: 'Requests answered, by method, route pattern ("unmatched": no route) and status code.',
    labelNames: ['method', 'route', 'status'] as const,
    registers,
  });
  const duration = new Histogram({
    name: 'beacon_http_request_duration_seconds',
    help: 'Time from receiving a request to the end of its answer, by method and route pattern (a hub stream or long poll lasts as long as it stays open).',
    labelNames: ['method', 'route'] as const,
    registers,
  });
  app.addHook('onResponse', (request, reply, done) => {
    const route = routeOf(request);
    requests.inc({ method: request.method, route, status: reply.statusCode });
    duration.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });

  new Gauge({
    name: 'beacon_hub_connections',
    help: 'Open hub connections on this instance, by transport.',
    labelNames: ['transport'] as const,
    registers,
    collect() {
      for (const [transport, count] of Object.entries(app.hub.connectionsByTransport())) this.set({ transport }, count);
    },
  });

  new Gauge({
    name: 'beacon_job_queue_jobs',
    help: "Jobs in each queue by state (ready, deferred, active, failed and kept), as the queue's statistics last counted them (every minute); the same on every instance.",
    labelNames: ['queue', 'state'] as const,
    registers,
    async collect() {
      this.reset();
      try {
        for (const queue of await app.jobs.getQueues()) {
          this.set({ queue: queue.name, state: 'ready' }, queue.readyCount);
          this.set({ queue: queue.name, state: 'deferred' }, queue.deferredCount);
          this.set({ queue: queue.name, state: 'active' }, queue.activeCount);
          this.set({ queue: queue.name, state: 'failed' }, queue.failedCount);
        }
      } catch (error) {
        // The database does not answer (GET /api/ready says so): the scrape goes on without the queues.
        app.log.warn({ err: error }, 'metrics: could not read the job queues');
      }
    },
  });
  const jobFailures = new Counter({
    name: 'beacon_job_failures_total',
    help: 'Job runs on this instance that failed (each is retried until its queue gives up), by queue.',
    labelNames: ['queue'] as const,
    registers,
  });

  const payments = new Counter({
    name: 'beacon_payment_outcomes_total',
    help: 'Payments settled on this instance, by outcome (paid, failed, closed unpaid, refunded) and method (wechatpay, alipay, wallet; none for an order closed before a method was chosen).',
    labelNames: ['outcome', 'method'] as const,
    registers,
  });
  const refusals = new Counter({
    name: 'beacon_rate_limit_refusals_total',
    help: 'Requests a limit refused, by limit (global, route, or the limit of our own) and route pattern.',
    labelNames: ['limit', 'route'] as const,
    registers,
  });

  const messages = new Counter({
    name: 'beacon_messages_total',
    help: 'SMS and e-mails this instance handed to a provider, by channel, provider, message kind and outcome (sent, or the refusal: unreachable, rateLimited, numberInvalid, unavailable).',
    labelNames: ['channel', 'provider', 'kind', 'outcome'] as const,
    registers,
  });

  return {
    paymentSettled: (outcome, method) => payments.inc({ outcome, method: method ?? 'none' }),
    messageSent: (channel, provider, kind, outcome) => messages.inc({ channel, provider, kind, outcome }),
    limitRefused: (request, limit) => refusals.inc({ limit, route: routeOf(request) }),
    countingFailures: (queue, handler) => async (jobs) => {
      try {
        return await handler(jobs);
      } catch (error) {
        jobFailures.inc({ queue });
        throw error;
      }
    },
  };
}

/** Answers GET /metrics with the registry's text; anything else is not here. */
function scrapeHandler(app: FastifyInstance, registry: Registry) {
  return (request: IncomingMessage, response: ServerResponse) => {
    if (request.method !== 'GET' || request.url?.split('?')[0] !== '/metrics') {
      response.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('Not found: the metrics are at /metrics.\n');
      return;
    }
    registry.metrics().then(
      (text) => response.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (error: unknown) => {
        app.log.error({ err: error }, 'metrics: collecting failed');
        response.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' }).end('Collecting the metrics failed; the log says why.\n');
      },
    );
  };
}

function listen(server: Server, port: number, host: string): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const refused = (error: Error) => reject(new StartupError(`METRICS_PORT=${port} on METRICS_HOST=${host} cannot be listened on: ${error.message}`));
    server.once('error', refused);
    server.listen(port, host, () => {
      server.off('error', refused);
      resolve(server.address() as AddressInfo);
    });
  });
}

export default fp(
  async (app) => {
    const { METRICS_PORT: port, METRICS_HOST: host } = app.config;
    if (port === undefined) {
      app.decorate('metrics', notCounting);
      app.decorate('metricsUrl', null);
      return;
    }
    const registry = new Registry();
    app.decorate('metrics', counting(app, registry));
    const server = createServer(scrapeHandler(app, registry));
    const address = await listen(server, port, host);
    const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
    app.decorate('metricsUrl', `http://${shownHost}:${address.port}/metrics`);
    app.log.info(`Metrics for Prometheus at ${app.metricsUrl}`);
    app.addHook('onClose', async () => {
      const closed = new Promise((resolve) => server.close(resolve));
      // A scraper keeps its connection open between scrapes; closing must not wait for it.
      server.closeAllConnections();
      await closed;
    });
  },
  { name: 'metrics', dependencies: ['config', 'database', 'hub'] },
);
