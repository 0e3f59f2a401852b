/**
 * The hub's HTTP face at /api/signalr/message (dotnet/aspnetcore's
 * TransportProtocols.md): negotiate, then one of three transports on the same URL — a WebSocket
 * upgrade, a Server-Sent Events stream (GET with Accept: text/event-stream) or
 * long polling (any other GET) — with POST for the client's messages on the
 * last two, and DELETE to end a long-polling connection.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hubPath } from '#contract/realtime.ts';
import { bearerToken } from '../http/auth.ts';
import type { HubConnection } from './connection.ts';
import type { Hub } from './hub.ts';
import { LongPollingTransport } from './long-polling.ts';
import { ServerSentEventsTransport } from './server-sent-events.ts';
import { WebSocketTransport } from './websocket.ts';

interface HubQuery {
  id?: string;
  access_token?: string;
  negotiateVersion?: string;
  useStatefulReconnect?: string;
}

/** The hub token: the access_token query (browsers' WebSockets and every EventSource) or the bearer header. */
function hubToken(request: FastifyRequest<{ Querystring: HubQuery }>): string | null {
  return request.query.access_token || bearerToken(request.headers.authorization);
}

/** Answers as .NET does: a short plain-text reason. */
function refuse(reply: FastifyReply, status: number, reason: string): FastifyReply {
  return reply.code(status).type('text/plain; charset=utf-8').send(reason);
}

/** The connection a request names, or the refusal already sent. */
function connectionOf(hub: Hub, request: FastifyRequest<{ Querystring: HubQuery }>, reply: FastifyReply): HubConnection | null {
  const { id } = request.query;
  if (!id) {
    refuse(reply, 400, 'Connection ID required');
    return null;
  }
  const connection = hub.find(id);
  if (!connection) {
    refuse(reply, 404, 'No Connection with that ID');
    return null;
  }
  return connection;
}

/**
 * Requests on a negotiated connection skip the per-address limit: a long-polling
 * client polls and sends several times a minute by design, and only the holder
 * of a connection token can make them. Negotiate, which makes connections, is limited.
 */
const connectionBound = { rateLimit: false } as const;

/** The hub's routes, under the API prefix (for its CORS and rate limits); the hub itself is `app.hub` (plugin.ts). */
export async function hubRoutes(api: FastifyInstance): Promise<void> {
  const { hub } = api;
  await api.register(async (routes) => {
    // Clients send text/plain; take any body as text.
    routes.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

    routes.post<{ Querystring: HubQuery }>(`${hubPath}/negotiate`, async (request, reply) => {
      const { negotiateVersion, useStatefulReconnect } = request.query;
      return reply.send(hub.negotiate(Number(negotiateVersion) || 0, useStatefulReconnect?.toLowerCase() === 'true'));
    });

    routes.route<{ Querystring: HubQuery }>({
      method: 'GET',
      url: hubPath,
      config: connectionBound,
      // Runs before a WebSocket upgrade too, so a bad id is refused with a status, not a socket.
      preValidation: async (request, reply) => {
        // A WebSocket without an id skipped negotiation; every other request names its connection.
        if (request.ws && request.query.id === undefined) return;
        const connection = connectionOf(hub, request, reply);
        if (!connection) return reply;
        if (!request.ws) return;
        // With stateful reconnect a new socket takes the connection over, as in .NET, even before the old one is seen to drop.
        if (connection.buffer) {
          if (!hub.mayReattach(connection, hubToken(request))) return refuse(reply, 403, 'The connection belongs to someone else.');
        } else if (connection.transport) {
          return refuse(reply, 409, 'A connection with this ID is already in use.');
        }
      },
      wsHandler: (socket, request) => {
        const connection = request.query.id ? hub.find(request.query.id) : hub.adopt();
        // It ended while the socket was being opened.
        if (!connection) return socket.close(1000);
        const transport = new WebSocketTransport(socket);
        if (connection.buffer) hub.reattach(connection, transport);
        else hub.attach(connection, transport, hubToken(request));
        socket.on('message', (data) => {
          // A socket a newer one replaced has nothing more to say.
          if (connection.transport === transport) hub.receive(connection, data.toString());
        });
        // 1006: the socket went without a close frame — a network drop, which stateful reconnect outlives.
        socket.on('close', (code) => hub.socketClosed(connection, transport, code === 1006));
      },
      handler: async (request, reply) => {
        const connection = hub.find(request.query.id!)!;
        return request.headers.accept?.includes('text/event-stream')
          ? serverSentEvents(hub, connection, request, reply)
          : longPoll(hub, connection, request, reply);
      },
    });

    routes.post<{ Querystring: HubQuery; Body: string }>(hubPath, { config: connectionBound }, async (request, reply) => {
      const connection = connectionOf(hub, request, reply);
      if (!connection) return reply;
      if (!connection.transport) return refuse(reply, 400, 'The transport of this connection has not started.');
      if (connection.transport.kind === 'WebSockets') return refuse(reply, 405, 'POST requests are not allowed for WebSocket connections.');
      hub.receive(connection, typeof request.body === 'string' ? request.body : '');
      return reply.code(200).send();
    });

    routes.delete<{ Querystring: HubQuery }>(hubPath, { config: connectionBound }, async (request, reply) => {
      const connection = connectionOf(hub, request, reply);
      if (!connection) return reply;
      if (!(connection.transport instanceof LongPollingTransport)) return refuse(reply, 400, 'Cannot terminate this connection using the DELETE endpoint.');
      hub.disconnected(connection);
      return reply.code(202).send();
    });
  });
}

function serverSentEvents(hub: Hub, connection: HubConnection, request: FastifyRequest<{ Querystring: HubQuery }>, reply: FastifyReply): FastifyReply {
  if (connection.transport) return refuse(reply, 409, 'A connection with this ID is already in use.');
  const transport = new ServerSentEventsTransport();
  hub.attach(connection, transport, hubToken(request));
  reply.raw.on('close', () => hub.disconnected(connection));
  return reply
    .headers({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-store',
      pragma: 'no-cache',
      'content-encoding': 'identity',
      // nginx and friends would otherwise hold the stream back (dotnet/AspNetCore.Docs#10827).
      'x-accel-buffering': 'no',
    })
    .send(transport.stream);
}

async function longPoll(hub: Hub, connection: HubConnection, request: FastifyRequest<{ Querystring: HubQuery }>, reply: FastifyReply): Promise<FastifyReply> {
  const { transport } = connection;
  if (!transport) {
    // The first poll starts the transport and returns at once, empty: the client ignores its content.
    hub.attach(connection, new LongPollingTransport(hub.timing.longPollMs), hubToken(request));
    return reply.code(200).type('text/plain; charset=utf-8').send('');
  }
  if (!(transport instanceof LongPollingTransport)) return refuse(reply, 400, 'Cannot change transports mid-connection.');
  // A client that gives up on its poll leaves the messages for the next one.
  const release = () => transport.release();
  reply.raw.on('close', release);
  const answer = await transport.poll();
  reply.raw.off('close', release);
  if (answer.status === 204) {
    // The connection ended and this poll has said so: it can be forgotten.
    if (connection.ended) hub.disconnected(connection);
    return reply.code(204).send();
  }
  return reply.code(200).type('text/plain; charset=utf-8').send(answer.body);
}
