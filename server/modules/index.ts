/**
 * Every module of the server, in the order the app registers them: its routes
 * (a plugin under /api) and its operators' commands (a plugin of handlers),
 * each loaded only when asked for — the server loads both, the CLI
 * (command-app.ts) the commands alone, so it starts quickly. A new module is
 * one line here.
 */
import type { FastifyPluginAsync } from 'fastify';
import { devStandInsAllowed, type Config } from '../config.ts';

type Plugin = FastifyPluginAsync;
type Load = () => Promise<{ default: Plugin }>;

export interface ServerModule {
  name: string;
  routes?: Load;
  commands?: Load;
  /** Whether the app has it with this configuration; absent: always. */
  when?(config: Config): boolean;
}

export const serverModules: readonly ServerModule[] = [
  { name: 'identity', routes: () => import('./identity/plugin.ts'), commands: () => import('./identity/commands.ts') },
  { name: 'system', routes: () => import('./system/plugin.ts'), commands: () => import('./system/commands.ts') },
  { name: 'support', routes: () => import('./support/plugin.ts') },
  { name: 'cloud-idle', routes: () => import('./cloud-idle/plugin.ts'), commands: () => import('./cloud-idle/commands.ts') },
  { name: 'commerce', routes: () => import('./commerce/plugin.ts'), commands: () => import('./commerce/commands.ts') },
  { name: 'activation', routes: () => import('./activation/plugin.ts'), commands: () => import('./activation/commands.ts') },
  { name: 'donation', routes: () => import('./donation/plugin.ts'), commands: () => import('./donation/commands.ts') },
  { name: 'raffle', routes: () => import('./raffle/plugin.ts'), commands: () => import('./raffle/commands.ts') },
  { name: 'plugins', routes: () => import('./plugins/plugin.ts'), commands: () => import('./plugins/commands.ts') },
  { name: 'status', routes: () => import('./status/plugin.ts'), commands: () => import('./status/commands.ts') },
  { name: 'admin', routes: () => import('./admin/plugin.ts'), commands: () => import('./admin/commands.ts') },
  { name: 'dashboard', commands: () => import('./dashboard/commands.ts') },
  { name: 'operators', routes: () => import('./operators/console-routes.ts'), commands: () => import('./operators/commands.ts') },
  { name: 'dev', routes: () => import('./dev/plugin.ts'), when: devStandInsAllowed },
];

/** The modules' plugins of one kind that the configuration includes (every module's commands when it is not known: the CLI parsing words). */
export async function modulePlugins(kind: 'routes' | 'commands', config?: Config): Promise<Plugin[]> {
  const included = serverModules.filter((module) => !config || !module.when || module.when(config));
  const loaded = await Promise.all(included.flatMap((module) => (module[kind] ? [module[kind]()] : [])));
  return loaded.map((plugin) => plugin.default);
}
