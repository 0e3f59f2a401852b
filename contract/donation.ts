/**
 * Donations (account `redemption/donate`, `/sponsor`): a user gives
 * part of the wallet balance to the project and may be thanked by name on the
 * sponsor page. Amounts, bounds and list length are facts (content/facts.json
 * `donation`), so the pages state the same numbers the server checks.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { sponsorsPath } from './donation-paths.ts';
import { facts } from './facts.ts';
import { Empty, Minor, pathId, text } from './fields.ts';

export const donationRules = {
  /** The amounts offered, in fen. */
  amounts: facts.donation.amounts.map((amount) => amount.cny),
  minimum: facts.donation.minimum.cny,
  maximum: facts.donation.maximum.cny,
  nameMaxLength: facts.donation.nameMaxLength,
  /** How many named donations the sponsor page shows, newest first. */
  sponsorListLength: facts.donation.sponsorListLength,
} as const;

/** A name to be thanked by: plain text, shown as text. */
const SponsorName = text(z.trim(), z.minLength(1), z.maxLength(donationRules.nameMaxLength));

/** One thank-you on the sponsor page. */
export const Sponsor = z.object({ Name: text(), At: z.iso.datetime() });
export type Sponsor = z.infer<typeof Sponsor>;

/** One of the user's own donations; `Name` is null when they gave without being named (or took their name off). */
export const Donation = z.object({ Id: z.int(), Amount: Minor, Name: z.nullable(text()), At: z.iso.datetime() });
export type Donation = z.infer<typeof Donation>;

export const donationCalls = {
  /** Gives `Amount` fen of the wallet; `Name` only when the user opts in to be thanked by it. */
  donate: route({
    method: 'POST',
    path: '/donation/v1/donations',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ Amount: Minor, Name: z.nullable(SponsorName) }),
    response: z.object({ Donation, Balance: Minor }),
  }),
  /** The user's latest donations, newest first (one page: paging.ts `pageSize`). */
  mine: route({
    method: 'GET',
    path: '/donation/v1/donations',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: z.array(Donation),
  }),
  /** Takes the user's name off one of their donations: it leaves the sponsor page. */
  removeName: route({
    method: 'DELETE',
    path: '/donation/v1/donations/:id/name',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: z.object({ id: pathId }),
    request: Empty,
    response: Donation,
  }),
  /** The sponsor page's list: named donations, newest first. Public, plain, and cached briefly. */
  sponsors: route({
    method: 'GET',
    path: sponsorsPath,
    encrypted: false,
    auth: 'none',
    shape: 'envelope',
    request: Empty,
    response: z.array(Sponsor),
  }),
};
