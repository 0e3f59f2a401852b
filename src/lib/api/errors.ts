/**
 * How a failed call reads to the user (spec §8): the server's own words
 * whenever it gave some, already in the user's language — for a 429 the
 * limit it hit (a code's resend wait, a daily cap, a cdkey lockout), or
 * "too fast"; for a 401 "need to log in" or "login expired". Without them:
 * 429 → too fast; 401 to a call made without a token → need to log in, to
 * one whose token was refused → login expired (and the 401 event); no answer
 * → network error; an answer we cannot read → unknown error.
 */
export type FailureKind = 'tooManyRequests' | 'loginRequired' | 'unauthorized' | 'network' | 'unknown' | 'server';

/** The dictionary key of each kind's message; `server` failures carry their own text. */
const messageOfFailure = {
  tooManyRequests: 'messages.tooFast',
  loginRequired: 'messages.loginRequired',
  unauthorized: 'messages.unauthorized',
  network: 'messages.networkError',
  unknown: 'messages.unknownError',
  server: 'messages.unknownError',
} as const satisfies Record<FailureKind, string>;

export type FailureMessageKey = (typeof messageOfFailure)[FailureKind];

/** Every message a failed call may show: what a page hands down to an island that calls (`stringsFor`). */
export const failureMessageKeys: readonly FailureMessageKey[] = [...new Set(Object.values(messageOfFailure))];

export class ApiFailure extends Error {
  readonly kind: FailureKind;
  /** The envelope code, when the server answered with one. */
  readonly code?: number;
  /** The server's message, shown as is. */
  readonly serverMessage?: string;
  /** For a limit, when the server said to try again (`Retry-After`). */
  readonly retryAfterMs?: number;

  constructor(kind: FailureKind, details: { code?: number; serverMessage?: string; retryAfterMs?: number } = {}) {
    super(details.serverMessage ?? kind);
    this.kind = kind;
    this.code = details.code;
    this.serverMessage = details.serverMessage;
    this.retryAfterMs = details.retryAfterMs;
  }
}

/**
 * What to show for any error: the server's own words when it gave some,
 * otherwise the key of our message for the failure's kind (anything that is
 * not an ApiFailure is an unknown error).
 */
export function failureMessage(error: unknown): { text: string } | { key: FailureMessageKey } {
  if (!(error instanceof ApiFailure)) return { key: messageOfFailure.unknown };
  if (error.serverMessage) return { text: error.serverMessage };
  return { key: messageOfFailure[error.kind] };
}
