/** The admin module's commands: `migrations status`, `backup` and `restore` (the CLI's alone). */
import { commandsPlugin } from '../../admin-command.ts';
import { backupCommands, restoreCommands } from './backup.ts';
import { migrationCommands } from './migrations.ts';

export default commandsPlugin('admin', [...migrationCommands, ...backupCommands, ...restoreCommands]);
