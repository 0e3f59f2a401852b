// Being written (issue 45): replaced by the provider's module.
import type { Config } from '../config.ts';
import type { Messenger } from './messenger.ts';

export function aliyunSmsMessenger(_config: Config): Messenger {
  throw new Error('aliyun-sms: not written yet');
}
