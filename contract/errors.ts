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
  /** This instance cannot serve now (its database does not answer): a load balancer sends the request elsewhere. */
  Unavailable: 503,
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
  /** The nickname breaks a rule of `nicknameRules` (the message names which). */
  NicknameInvalid: 4005,
  /** The upload is not a usable PNG, JPEG or WebP image (the message says why). */
  AvatarInvalid: 4006,
  PhoneTaken: 4007,
  /** The current password given to change the password, or to delete the account, is wrong. */
  PasswordWrong: 4008,
  /** An e-mail confirmation link that was never issued. */
  LinkInvalid: 4009,
  LinkExpired: 4010,
  LinkUsed: 4012,
  /** Unbinding would leave the account with no way to log in. */
  LastLoginMethod: 4013,
  /** A code was asked for the user's phone or e-mail, and the account has none. */
  ContactMissing: 4014,
  /** A quick login's "bind phone" ticket that is unknown, used or expired: the quick login must start again. */
  ExternalTicketInvalid: 4015,
  /** The phone's account already has another identity of that provider linked. */
  ProviderLinked: 4016,
  /** Device sign-in (contract/device-login.ts): not decided yet, polled too fast, refused, or expired or used. */
  DeviceAuthorizationPending: 4017,
  DeviceSlowDown: 4018,
  DeviceAccessDenied: 4019,
  DeviceCodeExpired: 4020,
  /** The cloud-idle game list is full (`cloudIdle.maxGames`). */
  IdleGamesFull: 4021,
  /** Payments are paused by the operators (`admin maintenance on`). */
  Maintenance: 4022,
  /** A payment method this order or this server does not take. */
  PayMethodUnsupported: 4023,
  /** The order is closed (cancelled, expired or failed): it can no longer be paid. */
  OrderClosed: 4024,
  /** The order is paid already. */
  OrderPaid: 4025,
  InsufficientBalance: 4026,
  /** The product does not exist or is no longer sold. */
  ProductUnavailable: 4027,
  /** A recharge amount outside the product's bounds. */
  AmountInvalid: 4028,
  /** The Steam account to recharge is not a friend code, SteamID64 or trade URL. */
  SteamTargetInvalid: 4029,
  /** A recharge for the linked Steam account, and none is linked. */
  SteamNotLinked: 4030,
  /** The payment provider did not answer as it should; nothing was charged. */
  PaymentProviderFailed: 4031,
  /** Auto-renewal: this agreement is signed already (the payment outcome "agreement already signed"). */
  AgreementSigned: 4032,
  /** Auto-renewal: the user has a signed agreement already (the payment outcome "user already signed"). */
  UserSigned: 4033,
  /** A cdkey that was never made (or was revoked). */
  CdkeyUnknown: 4034,
  /** A cdkey someone redeemed already. */
  CdkeyUsed: 4035,
  /** A cdkey whose batch has expired. */
  CdkeyExpired: 4036,
  /** A cdkey whose check character does not fit: a typo. */
  CdkeyChecksum: 4037,
  /** Too many wrong cdkeys from this account or address lately: redeeming is locked for a while. */
  CdkeyLocked: 4038,
  /** A /bindorder link whose signature does not fit: forged or altered. */
  BindLinkInvalid: 4039,
  /** A /bindorder link past its time. */
  BindLinkExpired: 4040,
  /** A /bindorder link whose order has an account already: each link works once. */
  BindLinkUsed: 4041,
  /** The raffle is not taking registrations or draws now (not open yet, over, canceled, or of the other kind). */
  RaffleNotOpen: 4042,
  /** The account is younger than the raffle's `MinAccountAgeDays`. */
  RaffleIneligible: 4043,
  /** The caller has made every instant draw the raffle allows. */
  RaffleDrawLimit: 4044,
  /** Nothing to claim: not drawn, not won, or the claim window has passed. */
  PrizeUnclaimable: 4045,
  PrizeClaimed: 4046,
  /** One's own plugin review cannot be marked helpful or reported. */
  EvaluationOwn: 4047,
  /** The SMS or e-mail gateway could not be reached or refused the message: nothing was sent. */
  MessageNotSent: 4048,
  /** The SMS provider limits messages to this number for now (`Retry-After` says when to ask again): nothing was sent. */
  MessageRateLimited: 4057,
  /** The provider says the phone number or e-mail address cannot take messages: nothing was sent. */
  RecipientUnreachable: 4060,
  /** The shop's account at the provider cannot send now (its balance, a template or sign suspended): nothing was sent. */
  MessagingUnavailable: 4061,
  /** The console (contract/console.ts): no console session, or it ended (signed out, idle, too old, its login ended); sign in again. */
  ConsoleSignIn: 4049,
  /** The signed-in account has no operator's role, or its role does not include this action. */
  ConsoleForbidden: 4050,
  /** The authenticator code or recovery code is wrong, or was used already. */
  ConsoleCodeInvalid: 4051,
  /** An authenticator is confirmed for this account already; an admin resets it (`role reset-factor`). */
  ConsoleEnrolled: 4052,
  /** A state-changing console call without the session's own token, or from another site's page. */
  ConsoleCrossSite: 4053,
  /** A refund over what the operator's role may refund (a support user's limit per order or per day). */
  RefundOverLimit: 4054,
  /** A refund of nothing, or of more than is left to refund of the order. */
  RefundAmountInvalid: 4055,
  /** A login code costs the shop now (many codes from this address, or from everywhere): solve a proof-of-work challenge (`identity.codeChallenge`) and ask again with its solution. */
  ProofOfWorkRequired: 4062,
  /** The proof of work given is wrong, expired, not this server's, or was used already. */
  ProofOfWorkInvalid: 4063,
  /** `refund resolve` of a refund the provider did not report abnormal, or one resolved already. */
  RefundNotAbnormal: 4056,
  /** Too many wrong console codes in a row: the account's console sign-in is locked until the time `Retry-After` gives (or an admin's `role unlock`). */
  ConsoleLocked: 4058,
  /** An authenticator is enrolled only after a code to the account's own phone (or e-mail), and the account has neither. */
  ConsoleContactMissing: 4059,
  /** The uploads storage has no room for the file (a full disk, a bucket over its quota): nothing was changed. */
  StorageFull: 4066,
} as const;

export type ErrorCode = (typeof ErrorCode)[keyof typeof ErrorCode];

const statusByCode: Partial<Record<number, number>> = {
  [ErrorCode.EncryptionInvalid]: 400,
  [ErrorCode.CodeInvalid]: 400,
  [ErrorCode.CodeBurned]: 400,
  [ErrorCode.CredentialsInvalid]: 400,
  [ErrorCode.EmailTaken]: 409,
  [ErrorCode.RefreshReused]: 401,
  [ErrorCode.NicknameInvalid]: 400,
  [ErrorCode.AvatarInvalid]: 400,
  [ErrorCode.PhoneTaken]: 409,
  [ErrorCode.PasswordWrong]: 400,
  [ErrorCode.LinkInvalid]: 400,
  [ErrorCode.LinkExpired]: 410,
  [ErrorCode.LinkUsed]: 409,
  [ErrorCode.LastLoginMethod]: 409,
  [ErrorCode.ContactMissing]: 400,
  [ErrorCode.ExternalTicketInvalid]: 400,
  [ErrorCode.ProviderLinked]: 409,
  [ErrorCode.DeviceAuthorizationPending]: 400,
  [ErrorCode.DeviceSlowDown]: 400,
  [ErrorCode.DeviceAccessDenied]: 403,
  [ErrorCode.DeviceCodeExpired]: 400,
  [ErrorCode.IdleGamesFull]: 409,
  [ErrorCode.Maintenance]: 503,
  [ErrorCode.PayMethodUnsupported]: 400,
  [ErrorCode.OrderClosed]: 409,
  [ErrorCode.OrderPaid]: 409,
  [ErrorCode.InsufficientBalance]: 409,
  [ErrorCode.ProductUnavailable]: 404,
  [ErrorCode.AmountInvalid]: 400,
  [ErrorCode.SteamTargetInvalid]: 400,
  [ErrorCode.SteamNotLinked]: 409,
  [ErrorCode.PaymentProviderFailed]: 502,
  // Not 401: the site takes a 401 as "the customer login expired", and the console session is a different thing.
  [ErrorCode.ConsoleSignIn]: 403,
  [ErrorCode.ConsoleForbidden]: 403,
  [ErrorCode.ConsoleCodeInvalid]: 400,
  [ErrorCode.ConsoleEnrolled]: 409,
  [ErrorCode.ConsoleCrossSite]: 403,
  [ErrorCode.RefundOverLimit]: 403,
  [ErrorCode.RefundAmountInvalid]: 400,
  [ErrorCode.ProofOfWorkRequired]: 403,
  [ErrorCode.ProofOfWorkInvalid]: 400,
  [ErrorCode.RefundNotAbnormal]: 409,
  [ErrorCode.ConsoleLocked]: 429,
  [ErrorCode.ConsoleContactMissing]: 409,
  [ErrorCode.StorageFull]: 507,
  [ErrorCode.MessageNotSent]: 502,
  [ErrorCode.MessageRateLimited]: 429,
  [ErrorCode.RecipientUnreachable]: 400,
  [ErrorCode.MessagingUnavailable]: 503,
  [ErrorCode.AgreementSigned]: 409,
  [ErrorCode.UserSigned]: 409,
  [ErrorCode.CdkeyUnknown]: 404,
  [ErrorCode.CdkeyUsed]: 409,
  [ErrorCode.CdkeyExpired]: 410,
  [ErrorCode.CdkeyChecksum]: 400,
  [ErrorCode.CdkeyLocked]: 429,
  [ErrorCode.BindLinkInvalid]: 400,
  [ErrorCode.BindLinkExpired]: 410,
  [ErrorCode.BindLinkUsed]: 409,
  [ErrorCode.RaffleNotOpen]: 409,
  [ErrorCode.RaffleIneligible]: 403,
  [ErrorCode.RaffleDrawLimit]: 409,
  [ErrorCode.PrizeUnclaimable]: 409,
  [ErrorCode.PrizeClaimed]: 409,
  [ErrorCode.EvaluationOwn]: 409,
};

export function httpStatusOf(code: number): number {
  return statusByCode[code] ?? code;
}
