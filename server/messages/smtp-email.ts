// Being written (issue 45): replaced by the provider's module.
import type { Config } from '../config.ts';
import type { Messenger } from './messenger.ts';

export function smtpEmailMessenger(_config: Config): Messenger {
  throw new Error('smtp-email: not written yet');
}
