/** The operators' commands about donations: `donation list|hide|show`, to keep the sponsor page fit to read. */
import { UsageError, type AdminCommand } from '../../cli/command.ts';
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

const visibility = (name: 'donation hide' | 'donation show', hidden: boolean): AdminCommand => ({
  name,
  usage: hidden ? 'donation hide <id>              take a name off the sponsor page' : 'donation show <id>              put a hidden name back',
  parse(rest) {
    const id = oneId(name, rest);
    return async (context) => {
      const row = await setHidden(context.db, id, hidden);
      return { command: name, donation: row && described(row) };
    };
  },
});

export const donationCommands: AdminCommand[] = [
  {
    name: 'donation list',
    usage: `donation list                   the latest ${listLimit} named donations, hidden ones too`,
    parse(rest) {
      if (rest.length > 0) throw new UsageError('donation list takes nothing more');
      return async (context) => ({ command: 'donation list', donations: (await namedDonations(context.db, listLimit)).map(described) });
    },
  },
  visibility('donation hide', true),
  visibility('donation show', false),
];
