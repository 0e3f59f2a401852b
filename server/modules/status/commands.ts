/**
 * The operators' commands about acceleration status (contract/commands/status.ts).
 * A change is pushed to open accelerate pages and enters the feeds.
 */
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import { statusCommands } from '#contract/commands/status.ts';
import { serviceStatusEvent, type ServiceStatus, type StatusNote } from '#contract/status.ts';
import { commandsPlugin, handle } from '../../admin-command.ts';
import { table, time } from '../../admin-text.ts';
import { incidents, services, setStatus } from './board.ts';

/** How many of the latest incidents `status incidents` shows. */
const incidentsShown = 50;

/** The notes per locale as the board keeps them: a reader without their own sees the English one, or else the first given. */
function noteOf(notes: Partial<Record<LocaleCode, string>>): StatusNote | null {
  const given = localeCodes.filter((code) => notes[code] !== undefined);
  if (given.length === 0) return null;
  return { Texts: notes, Fallback: notes.en ? 'en' : given[0] };
}

const statusHeaders = ['SERVICE', 'STATE', 'SINCE', 'NOTE'];
const statusRow = (service: ServiceStatus) => [
  service.Key,
  service.State,
  time(service.Since),
  service.Note ? (service.Note.Texts[service.Note.Fallback] ?? '-') : '-',
];

export default commandsPlugin('status', [
  handle(statusCommands.list, {
    run: async (app) => ({ command: 'status list', services: await services(app.db) }),
    format: (result) => table(statusHeaders, result.services.map(statusRow)),
  }),
  handle(statusCommands.incidents, {
    run: async (app) => ({ command: 'status incidents', incidents: await incidents(app.db, incidentsShown) }),
    format: ({ incidents: listed }) =>
      listed.length
        ? table(
            ['AT', 'SERVICE', 'FROM', 'TO', 'NOTE'],
            listed.map((incident) => [time(incident.At), incident.Key, incident.Previous, incident.State, incident.Note?.Texts.en ?? '-']),
          )
        : 'No incidents.',
  }),
  handle(statusCommands.set, {
    async run(app, { service, state, notes }, { actor }) {
      const change = await setStatus(app.db, actor, service, state, noteOf(notes));
      if (app.pusher) await app.pusher.broadcast(serviceStatusEvent, [change]);
      return { command: 'status set', service: change.Service, pushed: app.pusher !== null };
    },
    format: (result) =>
      `${table(statusHeaders, [statusRow(result.service)])}\n\n${
        result.pushed ? 'Open accelerate pages were told.' : 'No server could be reached to tell open pages; they see it on their next load.'
      }`,
  }),
]);
