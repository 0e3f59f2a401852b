/**
 * UI keys whose text is one of the error messages the server says too
 * (contract/messages.ts): their one text per locale is in contract/messages/,
 * not in the UI dictionary. Read by the build's dictionaries (t.ts) and by the
 * tests that read the dictionaries as files.
 */
import type { SharedMessageKey } from '#contract/messages.ts';

export const sharedMessages = {
  'api.tooManyRequests': 'tooFast',
  'api.loginExpired': 'unauthorized',
  'api.loginRequired': 'loginRequired',
  'api.networkError': 'networkError',
  'api.unknownError': 'unknownError',
  'session.expired': 'loginExpired',
  'session.userInfoFailed': 'userInfoFailed',
  'login.codeSent': 'smsSent',
  'account.bind.codeSent': 'smsSent',
  'realtime.tokenExpired': 'realtimeTokenExpired',
  'realtime.tokenFetchFailed': 'realtimeTokenFetchFailed',
  'realtime.noToken': 'realtimeNoToken',
  'realtime.error': 'genericError',
  'form.required': 'fieldRequired',
  'form.tooShort': 'fieldTooShort',
  'form.tooLong': 'fieldTooLong',
  'form.tooSmall': 'fieldTooSmall',
  'form.tooLarge': 'fieldTooLarge',
  'form.notNumber': 'fieldNotNumber',
  'form.invalid': 'fieldInvalid',
} as const satisfies Record<string, SharedMessageKey>;

/** A locale's UI dictionary file with its shared messages added under their UI keys. */
export function withSharedMessages(source: Record<string, string>, shared: Record<SharedMessageKey, string>): Record<string, string> {
  return { ...source, ...Object.fromEntries(Object.entries(sharedMessages).map(([key, message]) => [key, shared[message]])) };
}
