/**
 * The SignalR JSON hub protocol on the wire (dotnet/aspnetcore's HubProtocol.md):
 * messages are JSON texts each ending in the record separator 0x1E; a transport
 * chunk may hold several, or end in the middle of one.
 */
import { z } from 'zod';

export const recordSeparator = '\x1e';

/** The largest message a client may send; a longer unfinished tail ends the connection. */
export const maxMessageChars = 64 * 1024;

export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
  /** Stateful reconnect: every counted message up to `sequenceId` has arrived. */
  Ack: 8,
  /** Stateful reconnect, first after a new socket: the next counted message is number `sequenceId`. */
  Sequence: 9,
} as const;

/**
 * The messages stateful reconnect numbers (from 1, each direction on its own), keeps until
 * acknowledged and replays; pings, closes, acks and sequences are not counted.
 */
const countedTypes = new Set<number>([
  MessageType.Invocation,
  MessageType.StreamItem,
  MessageType.Completion,
  MessageType.StreamInvocation,
  MessageType.CancelInvocation,
]);
export const isCounted = (type: number): boolean => countedTypes.has(type);

export class InvalidDataError extends Error {}

/** Splits incoming text into whole messages, keeping an unfinished tail for the next chunk. */
export class MessageReader {
  private tail = '';

  read(chunk: string): string[] {
    const parts = (this.tail + chunk).split(recordSeparator);
    this.tail = parts.pop() ?? '';
    if (this.tail.length > maxMessageChars) throw new InvalidDataError(`A message is longer than ${maxMessageChars} characters.`);
    return parts;
  }
}

export const frame = (message: object): string => JSON.stringify(message) + recordSeparator;

/** Frames the server sends often, made once. */
export const frames = {
  handshakeOk: frame({}),
  ping: frame({ type: MessageType.Ping }),
};

const Handshake = z.object({ protocol: z.string(), version: z.number() });

/**
 * The handshake request: the JSON protocol version it asks for, or why it is refused. Version 2
 * is version 1 plus the Ack and Sequence messages, which a client asks for only once negotiate
 * agreed to stateful reconnect.
 */
export function readHandshake(text: string): { version: 1 | 2 } | { error: string } {
  let parsed;
  try {
    parsed = Handshake.safeParse(JSON.parse(text));
  } catch {
    return { error: 'Handshake request is not valid JSON.' };
  }
  if (!parsed.success) return { error: 'Handshake request is missing the protocol or the version.' };
  const { protocol, version } = parsed.data;
  if (protocol !== 'json') return { error: `The protocol '${protocol}' is not supported.` };
  if (version !== 1 && version !== 2) return { error: `The server does not support version ${version} of the 'json' protocol.` };
  return { version };
}

// An invocation id, when present, is a non-empty string (the client never sends null or "").
const invocationId = z.string().min(1);
const invocationFields = { target: z.string().min(1), arguments: z.array(z.unknown()), streamIds: z.array(z.string()).optional() };

const ClientMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal(MessageType.Invocation), invocationId: invocationId.optional(), ...invocationFields }),
  z.object({ type: z.literal(MessageType.StreamItem), invocationId, item: z.unknown() }),
  z.object({ type: z.literal(MessageType.Completion), invocationId, result: z.unknown().optional(), error: z.string().optional() }),
  z.object({ type: z.literal(MessageType.StreamInvocation), invocationId, ...invocationFields }),
  z.object({ type: z.literal(MessageType.CancelInvocation), invocationId }),
  z.object({ type: z.literal(MessageType.Ping) }),
  z.object({ type: z.literal(MessageType.Close), error: z.string().optional(), allowReconnect: z.boolean().optional() }),
  z.object({ type: z.literal(MessageType.Ack), sequenceId: z.number().int() }),
  z.object({ type: z.literal(MessageType.Sequence), sequenceId: z.number().int() }),
]);
export type ClientMessage = z.infer<typeof ClientMessage>;

const knownTypes = new Set<number>(Object.values(MessageType));

/** One message from a client; null for a type this server does not know (ignored, as the protocol asks). */
export function parseMessage(text: string): ClientMessage | null {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw new InvalidDataError('A message is not valid JSON.');
  }
  const type = (value as { type?: unknown } | null)?.type;
  if (typeof type !== 'number') throw new InvalidDataError('A message has no type.');
  if (!knownTypes.has(type)) return null;
  const parsed = ClientMessage.safeParse(value);
  if (!parsed.success) throw new InvalidDataError(`A message of type ${type} is malformed.`);
  return parsed.data;
}
