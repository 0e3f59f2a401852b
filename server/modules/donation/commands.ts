/** The operators' commands about donations (contract/commands/donation.ts): `donation list|hide|show`, to keep the sponsor page fit to read. */
import { donationCommands, donationListLimit, type DonationEntry } from '#contract/commands/donation.ts';
import { commandsPlugin, handle } from '../../admin-command.ts';
import { orDash, table, time } from '../../admin-text.ts';
import { namedDonations, setHidden, type DonationRow } from './donations.ts';

const described = (row: DonationRow): DonationEntry => ({
  id: row.id,
  userId: row.userId,
  amount: row.amount,
  name: row.name,
  hidden: row.hiddenAt !== null,
  at: row.createdAt.toISOString(),
});

const donationHeaders = ['ID', 'USER', 'FEN', 'NAME', 'HIDDEN', 'AT'];
const donationRow = (entry: DonationEntry) => [
  entry.id,
  entry.userId ?? '(deleted)',
  entry.amount,
  orDash(entry.name),
  entry.hidden ? 'yes' : 'no',
  time(entry.at),
];

/** `donation hide` and `donation show`: the name off the sponsor page, or back on it. */
const visibility = (declared: typeof donationCommands.hide | typeof donationCommands.show, hidden: boolean) =>
  handle(declared, {
    async run(app, { id }, { actor }) {
      const row = await setHidden(app.db, actor, id, hidden);
      return { command: declared.name, donation: row && described(row) };
    },
    format({ donation }) {
      if (!donation) return 'No such donation (donation list shows the ids).';
      return `${table(donationHeaders, [donationRow(donation)])}\n\n${donation.hidden ? 'The name is off the sponsor page.' : 'The name is on the sponsor page.'}`;
    },
    found: (result) => result.donation !== null,
  });

export default commandsPlugin('donation', [
  handle(donationCommands.list, {
    run: async (app) => ({ command: 'donation list', donations: (await namedDonations(app.db, donationListLimit)).map(described) }),
    format: ({ donations }) => (donations.length ? table(donationHeaders, donations.map(donationRow)) : 'No named donations.'),
  }),
  visibility(donationCommands.hide, true),
  visibility(donationCommands.show, false),
]);
