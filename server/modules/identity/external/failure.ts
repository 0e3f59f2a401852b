import type { ExternalLoginError } from '#contract/external-login.ts';

/** A quick login that cannot finish; `reason` is what the caller is told, `detail` goes to the log. */
export class ExternalLoginFailure extends Error {
  readonly reason: ExternalLoginError;

  constructor(reason: ExternalLoginError, detail: string) {
    super(detail);
    this.reason = reason;
  }
}
