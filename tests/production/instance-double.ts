/**
 * A stand-in for an API instance behind nginx, for nginx-failover.spec.ts: a
 * process of its own (so the test can stop it, freeze it with SIGSTOP and wake
 * it), answering in the API's envelope at once, with no database. It prints a
 * line for every request it reads, so the test knows which instance got what,
 * a frozen one's late reads included.
 *
 *   node instance-double.ts <name> <port>
 *
 * - `/api/who`: 200, naming the instance;
 * - `/api/signalr/message/negotiate`: 200, a connection id naming the instance;
 * - `/api/provider-failed`: 502 in the envelope, as the API answers when a payment provider fails;
 * - `/api/database-down`: 503 in the envelope with Retry-After, as an instance whose database is down;
 * - `/api/signalr/message?hold=<ms>`: 200 after `hold` ms, as a long poll with nothing to deliver.
 */
import { createServer } from 'node:http';

const [name, port] = process.argv.slice(2);

/** What an instance of the API answers these with: the envelope and the headers the test checks pass through nginx as they are. */
const answers: Record<string, { status: number; headers?: Record<string, string>; body: object }> = {
  '/api/who': { status: 200, body: { code: 200, message: '', data: { instance: name } } },
  '/api/signalr/message/negotiate': { status: 200, body: { connectionId: `${name}-connection`, availableTransports: [] } },
  '/api/provider-failed': { status: 502, body: { code: 4031, message: `The payment service is not responding right now (${name}).`, data: null } },
  '/api/database-down': { status: 503, headers: { 'retry-after': '2' }, body: { code: 503, message: `The database is not answering (${name}).`, data: null } },
};

const server = createServer((request, response) => {
  const url = new URL(request.url ?? '/', 'http://instance');
  console.log(JSON.stringify({ instance: name, method: request.method, path: url.pathname, id: request.headers['x-request-id'] }));
  request.resume();
  request.on('end', () => {
    const hold = url.pathname === '/api/signalr/message' ? Number(url.searchParams.get('hold')) : 0;
    const answer = answers[url.pathname] ?? { status: hold ? 200 : 404, body: { code: hold ? 200 : 404, message: '', data: null } };
    setTimeout(() => {
      response.writeHead(answer.status, { 'content-type': 'application/json; charset=utf-8', 'x-instance': name, ...answer.headers });
      response.end(JSON.stringify(answer.body));
    }, hold);
  });
});
server.listen(Number(port), '127.0.0.1', () => console.log(JSON.stringify({ listening: name })));
