/**
 * Every operators' command, declared by its module in contract/commands/, in
 * the order the usage text lists them. The CLI parses typed words against this
 * list; the server refuses a handler of a command that is not in it.
 */
import type { ResultOf } from './command.ts';
import { activationCommands } from './commands/activation.ts';
import { adminCommands } from './commands/admin.ts';
import { cloudIdleCommands } from './commands/cloud-idle.ts';
import { commerceCommands } from './commands/commerce.ts';
import { dashboardCommands } from './commands/dashboard.ts';
import { donationCommands } from './commands/donation.ts';
import { identityCommands } from './commands/identity.ts';
import { invoiceCommands } from './commands/invoices.ts';
import { roleAndAuditCommands } from './commands/operators.ts';
import { pluginsCommands } from './commands/plugins.ts';
import { raffleCommands } from './commands/raffle.ts';
import { statusCommands } from './commands/status.ts';
import { systemCommands } from './commands/system.ts';

const byModule = [
  identityCommands,
  cloudIdleCommands,
  commerceCommands,
  invoiceCommands,
  activationCommands,
  donationCommands,
  raffleCommands,
  pluginsCommands,
  statusCommands,
  roleAndAuditCommands,
  dashboardCommands,
  systemCommands,
  adminCommands,
] as const;

/** The declarations of each module, one member of the union per module… */
type ModuleCommands = (typeof byModule)[number];
/** …and any one declared command (distributing over those modules). */
export type DeclaredCommand = ModuleCommands extends infer M ? (M extends object ? M[keyof M] : never) : never;

/** Any command's result, told apart by its `command` (what `npm run admin -- … --json` prints). */
export type AnyCommandResult = ResultOf<DeclaredCommand>;

export const operatorCommands: readonly DeclaredCommand[] = byModule.flatMap((module) => Object.values(module) as DeclaredCommand[]);
