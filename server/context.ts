import type { Config } from './config.ts';
import type { ServerKeys } from './crypto/keys.ts';
import type { Database } from './db/open.ts';
import type { Hub } from './realtime/hub.ts';
import type { Messenger } from './services/messenger.ts';

/** What route modules need, handed to them once by `buildApp`. */
export interface AppContext {
  config: Config;
  db: Database;
  keys: ServerKeys;
  sms: Messenger;
  email: Messenger;
  /** Live pushes to users' open pages. */
  hub: Hub;
  /** Authorises the loopback admin endpoint; `main.ts` hands it to the CLI through `<DATA_DIR>/admin.json`. */
  adminToken: string;
}
