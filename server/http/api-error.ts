import { ErrorCode } from '#contract/errors.ts';
import type { MessageKey } from '../i18n/messages.ts';

/** An expected failure: answered as an envelope with `code` and the message in the user's language. */
export class ApiError extends Error {
  readonly code: number;
  readonly messageKey: MessageKey;
  /** Values for the message's `{{name}}` placeholders. */
  readonly messageParams: Record<string, string>;

  constructor(code: number, messageKey: MessageKey, messageParams: Record<string, string> = {}) {
    super(messageKey);
    this.code = code;
    this.messageKey = messageKey;
    this.messageParams = messageParams;
  }
}

export const unauthorized = () => new ApiError(ErrorCode.Unauthorized, 'unauthorized');
export const tooManyRequests = () => new ApiError(ErrorCode.TooManyRequests, 'tooManyRequests');
