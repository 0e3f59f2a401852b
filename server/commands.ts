/**
 * Every operators' command, from the modules that own them: what the admin
 * endpoint (app.ts) and the CLI (cli/) both accept.
 */
import type { Database } from './db/database.ts';
import type { AdminCommand, LocalCommand } from './cli/command.ts';
import { migrationCommands } from './modules/admin/migrations.ts';
import { backupCommands, restoreCommands } from './modules/admin/backup.ts';
import { activationCommands } from './modules/activation/commands.ts';
import { donationCommands } from './modules/donation/commands.ts';
import { raffleCommands } from './modules/raffle/commands.ts';
import { evaluationCommands } from './modules/plugins/commands.ts';
import { statusCommands } from './modules/status/commands.ts';
import { keyCommands } from './modules/system/commands.ts';
import { cloudIdleCommands } from './modules/cloud-idle/commands.ts';
import { commerceCommands } from './modules/commerce/commands.ts';
import { userCommands } from './modules/identity/commands.ts';
import { findByKey } from './modules/identity/users.ts';

export const adminCommands: readonly AdminCommand[] = [
  ...userCommands,
  ...cloudIdleCommands,
  ...commerceCommands,
  ...activationCommands,
  ...donationCommands,
  ...raffleCommands,
  ...evaluationCommands,
  ...statusCommands,
  ...migrationCommands,
  ...keyCommands,
  ...backupCommands,
];

/** Commands the CLI runs itself, never through a server: a server never restores. */
export const localCommands: readonly LocalCommand[] = restoreCommands;

/** How a command finds the user an operator names. */
export const findUser = (db: Database, key: string): Promise<{ id: number } | null> => findByKey(db, key);
