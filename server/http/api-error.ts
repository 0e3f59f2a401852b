import { ErrorCode } from '#contract/errors.ts';
import type { MessageKey } from '../i18n/messages.ts';

/** An expected failure: answered as an envelope with `code` and the message in the user's language. */
export class ApiError extends Error {
  readonly code: number;
  readonly messageKey: MessageKey;
  /** Values for the message's `{{name}}` placeholders. */
  readonly messageParams: Record<string, string>;
  /** For a limit: when the caller may try again, sent as `Retry-After` (RFC 9110). */
  readonly retryAfterMs?: number;
  /** For a limit's refusal, which limit it is as the metrics count it; a limit of our own is named by its message. */
  readonly limit?: string;

  constructor(
    code: number,
    messageKey: MessageKey,
    messageParams: Record<string, string> = {},
    { retryAfterMs, limit }: { retryAfterMs?: number; limit?: string } = {},
  ) {
    super(messageKey);
    this.code = code;
    this.messageKey = messageKey;
    this.messageParams = messageParams;
    this.retryAfterMs = retryAfterMs;
    this.limit = limit;
  }
}

/** A token that worked once and no longer does (expired, revoked, ended). */
export const unauthorized = () => new ApiError(ErrorCode.Unauthorized, 'unauthorized');
/** A call that needs a login, made without any token. */
export const loginRequired = () => new ApiError(ErrorCode.Unauthorized, 'loginRequired');
/**
 * A per-address rate limit's refusal (the API's `global` one, or a `route`'s own): the spec's HTTP 429 "too fast";
 * a code send's own limit says it in the SMS flow's words, "too many requests, take a break" (spec §8).
 */
export const tooManyRequests = (limit: 'global' | 'route', messageKey: 'tooFast' | 'tooManyRequests' = 'tooFast') =>
  new ApiError(ErrorCode.TooManyRequests, messageKey, {}, { limit });

/** A limit of our own, saying which it is and when to try again: the message's `{{seconds}}` or `{{hours}}`, and `Retry-After`. */
export function limitReached(messageKey: MessageKey, retryAfterMs: number): ApiError {
  const params = { seconds: String(Math.max(1, Math.ceil(retryAfterMs / 1000))), hours: String(Math.max(1, Math.ceil(retryAfterMs / 3600_000))) };
  return new ApiError(ErrorCode.TooManyRequests, messageKey, params, { retryAfterMs });
}
