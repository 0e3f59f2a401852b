/**
 * The operators' commands about acceleration status: `status list` and
 * `status set <service> <state> [--note <text>] [--note-<locale> <text>]…`.
 * A change is pushed to open accelerate pages and enters the feeds.
 */
import { localeCodes, type LocaleCode } from '#contract/locales.ts';
import {
  ServiceState,
  serviceStatusEvent,
  statusNoteMaxLength as noteMaxLength,
  statusTargetKeys,
  type ServiceStatus,
  type StatusNote,
  type StatusTargetKey,
} from '#contract/status.ts';
import { commandsPlugin, UsageError, type AdminCommand, type ResultOf } from '../../admin-command.ts';
import { table, time } from '../../admin-text.ts';
import { incidents, services, setStatus } from './board.ts';

/** How many of the latest incidents `status incidents` shows. */
const incidentsShown = 50;

/** `--note` is the English note every locale without its own shows; `--note-<locale>` gives a locale its own. */
function parseNote(words: string[]): StatusNote | null {
  if (words.length % 2 !== 0) throw new UsageError('each --note option takes one text (quote it)');
  const texts: Partial<Record<LocaleCode, string>> = {};
  for (let i = 0; i < words.length; i += 2) {
    const [flag, value] = [words[i], words[i + 1].trim()];
    const locale = flag === '--note' ? 'en' : localeCodes.find((code) => flag === `--note-${code}`);
    if (!locale) throw new UsageError(`unknown option ${flag}: use --note or --note-<locale> (${localeCodes.join(', ')})`);
    if (!value || value.length > noteMaxLength || /\p{Cc}/u.test(value)) throw new UsageError(`${flag} takes one line of 1 to ${noteMaxLength} characters`);
    texts[locale] = value;
  }
  const given = Object.keys(texts) as LocaleCode[];
  if (given.length === 0) return null;
  return { Texts: texts, Fallback: texts.en ? 'en' : given[0] };
}

const statusHeaders = ['SERVICE', 'STATE', 'SINCE', 'NOTE'];
const statusRow = (service: ServiceStatus) => [
  service.Key,
  service.State,
  time(service.Since),
  service.Note ? (service.Note.Texts[service.Note.Fallback] ?? '-') : '-',
];

export const statusCommands: AdminCommand[] = [
  {
    name: 'status list',
    role: 'support',
    usage: 'status list                     every acceleration region and service, with its state',
    parse(rest) {
      if (rest.length > 0) throw new UsageError('status list takes nothing more');
      return async ({ db }) => ({ command: 'status list', services: await services(db) });
    },
    format: (result: ResultOf<'status list'>) => table(statusHeaders, result.services.map(statusRow)),
  },
  {
    name: 'status incidents',
    role: 'operator',
    usage: 'status incidents                the latest changes of state and note, newest first',
    parse(rest) {
      if (rest.length) throw new UsageError('status incidents takes nothing more');
      return async ({ db }) => ({ command: 'status incidents', incidents: await incidents(db, incidentsShown) });
    },
    format: ({ incidents: listed }: ResultOf<'status incidents'>) =>
      listed.length
        ? table(
            ['AT', 'SERVICE', 'FROM', 'TO', 'NOTE'],
            listed.map((incident) => [time(incident.At), incident.Key, incident.Previous, incident.State, incident.Note?.Texts.en ?? '-']),
          )
        : 'No incidents.',
  },
  {
    name: 'status set',
    role: 'operator',
    usage:
      'status set <service> <up|degraded|down> [--note <text>] [--note-<locale> <text>]…\n' +
      '                                  set a state (and note) on the status board; open pages see it at once',
    parse(rest) {
      const [key, state, ...options] = rest;
      if (!statusTargetKeys.includes(key as StatusTargetKey)) throw new UsageError(`status set takes a service: ${statusTargetKeys.join(', ')}`);
      const parsedState = ServiceState.safeParse(state);
      if (!parsedState.success) throw new UsageError(`status set takes a state: ${ServiceState.options.join(', ')}`);
      const note = parseNote(options);
      return async ({ db, pusher, actor }) => {
        const change = await setStatus(db, actor, key as StatusTargetKey, parsedState.data, note);
        if (pusher) await pusher.broadcast(serviceStatusEvent, [change]);
        return { command: 'status set', service: change.Service, pushed: pusher !== null };
      };
    },
    format: (result: ResultOf<'status set'>) =>
      `${table(statusHeaders, [statusRow(result.service)])}\n\n${
        result.pushed ? 'Open accelerate pages were told.' : 'No server could be reached to tell open pages; they see it on their next load.'
      }`,
  },
];

export default commandsPlugin('status', statusCommands);
