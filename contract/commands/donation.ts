/** The operators' commands about donations: `donation list|hide|show`, to keep the sponsor page fit to read. */
import * as z from 'zod/mini';
import { command, NoArgs, noWords, UsageError } from '../command.ts';
import { text } from '../fields.ts';

/** How many of the latest named donations `donation list` shows. */
export const donationListLimit = 100;

/** A donation as operators look it over: who gave, how much (fen), the name it thanks, and whether that name is hidden. */
export const DonationEntry = z.object({
  id: z.int(),
  userId: z.nullable(z.int()),
  amount: z.int(),
  name: z.nullable(text()),
  hidden: z.boolean(),
  at: text(),
});
export type DonationEntry = z.infer<typeof DonationEntry>;

const DonationId = z.strictObject({
  id: z.int({ error: 'a donation id is a whole number (donation list shows them)' }).check(z.positive(), z.maximum(2_147_483_647)),
});

/** `<name> <id>`: one donation's id, and nothing else. */
const oneIdWord =
  (name: string) =>
  (rest: string[]): { id: number } => {
    if (rest.length !== 1 || !/^\d{1,10}$/.test(rest[0])) throw new UsageError(`${name} takes one donation id (donation list shows them)`);
    return { id: Number(rest[0]) };
  };

/** `donation hide|show <id>`: the donation as it is now, or null for an id there is none of. */
const Visibility = { donation: z.nullable(DonationEntry) };

export const donationCommands = {
  list: command({
    name: 'donation list',
    role: 'operator',
    usage: `donation list                   the latest ${donationListLimit} named donations, hidden ones too`,
    args: NoArgs,
    words: noWords('donation list'),
    result: { donations: z.array(DonationEntry) },
  }),
  hide: command({
    name: 'donation hide',
    role: 'operator',
    usage: 'donation hide <id>              take a name off the sponsor page',
    args: DonationId,
    words: oneIdWord('donation hide'),
    result: Visibility,
  }),
  show: command({
    name: 'donation show',
    role: 'operator',
    usage: 'donation show <id>              put a hidden name back',
    args: DonationId,
    words: oneIdWord('donation show'),
    result: Visibility,
  }),
};
