/**
 * When each string of a locale's dictionary last changed value, by its part
 * and key, from git's history (history.ts): what decides whether an interface
 * string's translation has fallen behind its source (status.ts).
 *
 * A string's history goes on across the files it was kept in before each
 * locale had one dictionary (issue 48): `server/i18n/<locale>.json` (the
 * `server` part), `contract/messages/<locale>.json` (`messages`) and the flat
 * `content/i18n/<locale>.json` (`site`, and `console` for its `console.*`
 * keys). Only a change of value counts, so moving a string, reordering or
 * reformatting the file, changes nothing.
 */
import { dictionaryParts, dictionaryPath, type Dictionary, type DictionaryPart, type LocaleCode } from './content-files.ts';
import type { History, Seconds } from './history.ts';

type Strings = Record<string, string>;

/** A file a locale's strings are (or were) kept in, and how it reads into the parts of today's dictionary. */
interface Home {
  path: string;
  parts(written: Record<string, unknown>): Partial<Dictionary>;
}

/** A dictionary as written today: its parts, each an object of strings. */
const isParted = (written: Record<string, unknown>) => dictionaryParts.some((part) => typeof written[part] === 'object');

/** The flat dictionary of the site before issue 48: the console's keys are the `console` part's. */
function flatSite(written: Strings): Partial<Dictionary> {
  const site: Strings = {};
  const operators: Strings = {};
  for (const [key, text] of Object.entries(written)) {
    if (key.startsWith('console.')) operators[key.slice('console.'.length)] = text;
    else site[key] = text;
  }
  return { site, console: operators };
}

const homesOf = (locale: LocaleCode): Home[] => [
  { path: `server/i18n/${locale}.json`, parts: (written) => ({ server: written as Strings }) },
  { path: `contract/messages/${locale}.json`, parts: (written) => ({ messages: written as Strings }) },
  { path: dictionaryPath(locale), parts: (written) => (isParted(written) ? (written as Partial<Dictionary>) : flatSite(written as Strings)) },
];

/** The folders outside content/ that strings were kept in, for the history to read. */
export const formerDictionaryFolders = ['server/i18n', 'contract/messages'];

/** A string's name in the maps below: its part and key. */
const nameOf = (part: DictionaryPart, key: string) => `${part}\u0000${key}`;

/** Every string of a version of a home, by name; null for a version that is not a dictionary (deleted, or not JSON). */
function stringsOf(home: Home, text: string | null): Map<string, string> | null {
  if (text === null) return new Map();
  let written: unknown;
  try {
    written = JSON.parse(text);
  } catch {
    return null;
  }
  if (!written || typeof written !== 'object') return null;
  const parts = home.parts(written as Record<string, unknown>);
  return new Map(dictionaryParts.flatMap((part) => Object.entries(parts[part] ?? {}).map(([key, value]) => [nameOf(part, key), String(value)] as const)));
}

/** When each string of `locale`'s dictionary last changed value (`changed(part, key)`), undefined when git never saw it change. */
export function dictionaryHistory(history: History, locale: LocaleCode): (part: DictionaryPart, key: string) => Seconds | undefined {
  const homes = homesOf(locale);
  // Every version of every home, oldest first; a sort by time keeps each home's own order.
  const steps = homes.flatMap((home, index) => history.versions(home.path).map((version) => ({ ...version, index }))).sort((a, b) => a.time - b.time);
  const current = homes.map(() => new Map<string, string>());
  let before = new Map<string, string>();
  const changed = new Map<string, Seconds>();
  for (let at = 0; at < steps.length;) {
    // The versions of one moment (a commit changes several homes at once when it moves strings) make one step.
    const time = steps[at].time;
    for (; at < steps.length && steps[at].time === time; at++)
      current[steps[at].index] = stringsOf(homes[steps[at].index], steps[at].text) ?? current[steps[at].index];
    const now = new Map(current.flatMap((strings) => [...strings]));
    for (const [name, text] of now) if (before.get(name) !== text) changed.set(name, time);
    before = now;
  }
  return (part, key) => changed.get(nameOf(part, key));
}
