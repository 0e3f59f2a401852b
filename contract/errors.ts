/**
 * Error codes the server puts in the envelope's `code`. The HTTP status is the
 * first three digits' class (see `httpStatusOf`), so proxies and the client's
 * status mapping (429, 401) see the right thing.
 */
export const ErrorCode = {
  BadRequest: 400,
  Unauthorized: 401,
  NotFound: 404,
  PayloadTooLarge: 413,
  TooManyRequests: 429,
  ServerError: 500,
  /** The encrypted body or its key could not be opened (always the same answer, whatever failed). */
  EncryptionInvalid: 4000,
  /** The SMS or e-mail code is wrong, expired or used up. */
  CodeInvalid: 4001,
  /** Five wrong tries: the code is burned and a new one must be requested. */
  CodeBurned: 4002,
  /** Password login failed (unknown account or wrong password, deliberately not told apart). */
  CredentialsInvalid: 4003,
  EmailTaken: 4004,
  /** A refresh token was presented twice: the whole session is revoked. */
  RefreshReused: 4011,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const statusByCode: Partial<Record<number, number>> = {
  [ErrorCode.EncryptionInvalid]: 400,
  [ErrorCode.CodeInvalid]: 400,
  [ErrorCode.CodeBurned]: 400,
  [ErrorCode.CredentialsInvalid]: 400,
  [ErrorCode.EmailTaken]: 409,
  [ErrorCode.RefreshReused]: 401,
};

export function httpStatusOf(code: number): number {
  return statusByCode[code] ?? code;
}
