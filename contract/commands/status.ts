/**
 * The operators' commands about acceleration status: `status list`,
 * `status incidents` and `status set <service> <state> [--note <text>] [--note-<locale> <text>]…`.
 */
import * as z from 'zod/mini';
import { command, NoArgs, noWords, UsageError } from '../command.ts';
import { text } from '../fields.ts';
import { localeCodes, type LocaleCode } from '../locales.ts';
import { ServiceState, ServiceStatus, StatusIncident, statusNoteMaxLength, statusTargetKeys } from '../status.ts';

/** A note per locale: `--note` is the English one, which every locale without its own shows. */
const Notes = z.partialRecord(z.enum(localeCodes), text(z.trim(), z.minLength(1), z.maxLength(statusNoteMaxLength)));

/** `--note <text>` and `--note-<locale> <text>` pairs → the note per locale. */
function notesOf(words: string[]): Partial<Record<LocaleCode, string>> {
  if (words.length % 2 !== 0) throw new UsageError('each --note option takes one text (quote it)');
  const notes: Partial<Record<LocaleCode, string>> = {};
  for (let i = 0; i < words.length; i += 2) {
    const locale = words[i] === '--note' ? 'en' : localeCodes.find((code) => words[i] === `--note-${code}`);
    if (!locale) throw new UsageError(`unknown option ${words[i]}: use --note or --note-<locale> (${localeCodes.join(', ')})`);
    notes[locale] = words[i + 1];
  }
  return notes;
}

export const statusCommands = {
  list: command({
    name: 'status list',
    role: 'support',
    usage: 'status list                     every acceleration region and service, with its state',
    args: NoArgs,
    words: noWords('status list'),
    result: { services: z.array(ServiceStatus) },
  }),
  incidents: command({
    name: 'status incidents',
    role: 'operator',
    usage: 'status incidents                the latest changes of state and note, newest first',
    args: NoArgs,
    words: noWords('status incidents'),
    result: { incidents: z.array(StatusIncident) },
  }),
  set: command({
    name: 'status set',
    role: 'operator',
    usage:
      'status set <service> <up|degraded|down> [--note <text>] [--note-<locale> <text>]…\n' +
      '                                  set a state (and note) on the status board; open pages see it at once',
    args: z.strictObject({ service: z.enum(statusTargetKeys), state: ServiceState, notes: Notes }),
    words: ([service = '', state = '', ...options]) => ({ service, state, notes: notesOf(options) }),
    /** `pushed`: sent to open accelerate pages (false when no server or backplane could be reached to do it). */
    result: { service: ServiceStatus, pushed: z.boolean() },
  }),
};
