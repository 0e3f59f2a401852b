/** How opening an e-mail confirmation link can end, by the error code the server answers, and the screen each outcome shows. */
import { ErrorCode } from '#contract/errors.ts';

export const emailLinkFailures = ['expired', 'used', 'invalid', 'taken'] as const;
export type EmailLinkOutcome = 'confirmed' | (typeof emailLinkFailures)[number];

const byCode: Partial<Record<number, EmailLinkOutcome>> = {
  [ErrorCode.LinkExpired]: 'expired',
  [ErrorCode.LinkUsed]: 'used',
  [ErrorCode.LinkInvalid]: 'invalid',
  [ErrorCode.BadRequest]: 'invalid',
  [ErrorCode.EmailTaken]: 'taken',
};

/** The outcome screen for a refusal's code, or undefined when the refusal is not about the link (then its own message shows). */
export const outcomeOf = (code: number | undefined): EmailLinkOutcome | undefined => (code === undefined ? undefined : byCode[code]);
