/**
 * How a failed call reads to the user (spec §8): 429 → too fast; 401 → login
 * expired (and the 401 event); no answer → network error; an answer we cannot
 * read → unknown error; otherwise the server's own message, already in the
 * user's language.
 */
export type FailureKind = 'tooManyRequests' | 'unauthorized' | 'network' | 'unknown' | 'server';

/** The dictionary key of each kind's message; `server` failures carry their own text. */
export const failureMessageKeys = {
  tooManyRequests: 'api.tooManyRequests',
  unauthorized: 'api.loginExpired',
  network: 'api.networkError',
  unknown: 'api.unknownError',
  server: 'api.unknownError',
} as const satisfies Record<FailureKind, string>;

export class ApiFailure extends Error {
  readonly kind: FailureKind;
  /** The envelope code, when the server answered with one. */
  readonly code?: number;
  /** The server's message, shown as is. */
  readonly serverMessage?: string;

  constructor(kind: FailureKind, details: { code?: number; serverMessage?: string } = {}) {
    super(details.serverMessage ?? kind);
    this.kind = kind;
    this.code = details.code;
    this.serverMessage = details.serverMessage;
  }
}

/** The text to show for any error, given the page's translations. */
export function failureText(error: unknown, translate: (key: string) => string): string {
  if (error instanceof ApiFailure) return error.kind === 'server' && error.serverMessage ? error.serverMessage : translate(failureMessageKeys[error.kind]);
  return translate(failureMessageKeys.unknown);
}
