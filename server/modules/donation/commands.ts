/** The operators' commands about donations: `donation list|hide|show`, to keep the sponsor page fit to read. */
import type { DonationEntry } from '#contract/admin.ts';
import { commandsPlugin, UsageError, type AdminCommand, type ResultOf } from '../../admin-command.ts';
import { orDash, table, time } from '../../admin-text.ts';
import { namedDonations, setHidden, type DonationRow } from './donations.ts';

const listLimit = 100;

const described = (row: DonationRow) => ({
  id: row.id,
  userId: row.userId,
  amount: row.amount,
  name: row.name,
  hidden: row.hiddenAt !== null,
  at: row.createdAt.toISOString(),
});

function oneId(name: string, rest: string[]): number {
  if (rest.length !== 1 || !/^[1-9][0-9]{0,9}$/.test(rest[0])) throw new UsageError(`${name} takes one donation id (donation list shows them)`);
  return Number(rest[0]);
}

const donationHeaders = ['ID', 'USER', 'FEN', 'NAME', 'HIDDEN', 'AT'];
const donationRow = (entry: DonationEntry) => [
  entry.id,
  entry.userId ?? '(deleted)',
  entry.amount,
  orDash(entry.name),
  entry.hidden ? 'yes' : 'no',
  time(entry.at),
];

const visibility = (name: 'donation hide' | 'donation show', hidden: boolean): AdminCommand => ({
  name,
  role: 'operator',
  usage: hidden ? 'donation hide <id>              take a name off the sponsor page' : 'donation show <id>              put a hidden name back',
  parse(rest) {
    const id = oneId(name, rest);
    return async (context) => {
      const row = await setHidden(context.db, context.actor, id, hidden);
      return { command: name, donation: row && described(row) };
    };
  },
  format({ donation }: ResultOf<'donation hide' | 'donation show'>) {
    if (!donation) return 'No such donation (donation list shows the ids).';
    return `${table(donationHeaders, [donationRow(donation)])}\n\n${donation.hidden ? 'The name is off the sponsor page.' : 'The name is on the sponsor page.'}`;
  },
  found: (result: ResultOf<'donation hide' | 'donation show'>) => result.donation !== null,
});

export const donationCommands: AdminCommand[] = [
  {
    name: 'donation list',
    role: 'operator',
    usage: `donation list                   the latest ${listLimit} named donations, hidden ones too`,
    parse(rest) {
      if (rest.length > 0) throw new UsageError('donation list takes nothing more');
      return async (context) => ({ command: 'donation list', donations: (await namedDonations(context.db, listLimit)).map(described) });
    },
    format: ({ donations }: ResultOf<'donation list'>) => (donations.length ? table(donationHeaders, donations.map(donationRow)) : 'No named donations.'),
  },
  visibility('donation hide', true),
  visibility('donation show', false),
];

export default commandsPlugin('donation', donationCommands);
