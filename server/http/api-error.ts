import { ErrorCode } from '#contract/errors.ts';
import type { MessageKey } from '../i18n/messages.ts';

/** An expected failure: answered as an envelope with `code` and the message in the user's language. */
export class ApiError extends Error {
  readonly code: number;
  readonly messageKey: MessageKey;

  constructor(code: number, messageKey: MessageKey) {
    super(messageKey);
    this.code = code;
    this.messageKey = messageKey;
  }
}

export const unauthorized = () => new ApiError(ErrorCode.Unauthorized, 'unauthorized');
export const tooManyRequests = () => new ApiError(ErrorCode.TooManyRequests, 'tooManyRequests');
