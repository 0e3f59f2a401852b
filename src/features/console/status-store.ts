/**
 * The console's status area: each service's state and note on the public
 * board (`status list`, `status set` with a note per language), its latest
 * changes (`status incidents`), and whether
 * payments are paused for maintenance (`maintenance status|on|off`).
 */
import { atom } from 'nanostores';
import type { ArgsOf } from '#contract/command.ts';
import { commerceCommands } from '#contract/commands/commerce.ts';
import { statusCommands } from '#contract/commands/status.ts';
import type { LocaleCode } from '#contract/locales.ts';
import type { ServiceState, ServiceStatus, StatusIncident, StatusTargetKey } from '#contract/status.ts';
import { createAction } from '@/stores/action.ts';
import type { RunCommand } from './console-store.ts';

/** A service's state and its note in each language, as the form holds them ('' for none). */
export interface StatusChange {
  key: StatusTargetKey;
  state: ServiceState;
  notes: Partial<Record<LocaleCode, string>>;
}

/** `status set`'s arguments: the state, and each language's note that is not empty. */
export function statusArgs(change: StatusChange): ArgsOf<typeof statusCommands.set> {
  const notes = Object.fromEntries(Object.entries(change.notes).flatMap(([locale, text]) => (text?.trim() ? [[locale, text.trim()]] : [])));
  return { service: change.key, state: change.state, notes };
}

export function createStatusBoard(run: RunCommand) {
  const $services = atom<ServiceStatus[] | null>(null);
  const $maintenance = atom<boolean | null>(null);
  const $incidents = atom<StatusIncident[]>([]);
  const action = createAction<'console.status.saved' | 'console.status.maintenanceOn' | 'console.status.maintenanceOff'>();

  async function load(): Promise<void> {
    await action.run(async () => {
      const [listed, maintenance, changes] = await Promise.all([
        run(statusCommands.list, {}),
        run(commerceCommands.maintenanceStatus, {}),
        run(statusCommands.incidents, {}),
      ]);
      $services.set(listed.services);
      $maintenance.set(maintenance.maintenance);
      $incidents.set(changes.incidents);
    });
  }

  async function save(change: StatusChange): Promise<void> {
    await action.run(async () => {
      const saved = await run(statusCommands.set, statusArgs(change));
      $services.set(($services.get() ?? []).map((service) => (service.Key === saved.service.Key ? saved.service : service)));
      $incidents.set((await run(statusCommands.incidents, {})).incidents);
    }, 'console.status.saved');
  }

  async function setMaintenance(on: boolean): Promise<void> {
    await action.run(
      async () => $maintenance.set((await run(on ? commerceCommands.maintenanceOn : commerceCommands.maintenanceOff, {})).maintenance),
      on ? 'console.status.maintenanceOn' : 'console.status.maintenanceOff',
    );
  }

  return { $services, $maintenance, $incidents, $busy: action.$busy, $notice: action.$notice, load, save, setMaintenance };
}
