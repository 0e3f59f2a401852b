/**
 * The games a user wants idled in the cloud (account centre `game` page): a
 * list of Steam app ids, at most `cloudIdle.maxGames` (Steam idles that many
 * games at once), named from the bundled list (steam-games.ts).
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { facts } from './facts.ts';
import { Empty, pathId, text } from './fields.ts';

export const maxIdleGames: number = facts.cloudIdle.maxGames;

/** A Steam app id as typed: a positive whole number. */
const AppId = z.int().check(z.positive(), z.maximum(2_147_483_647));

export const IdleGame = z.object({
  AppId,
  /** From the bundled list; null for a game that is not in it. */
  Name: z.nullable(text()),
  AddedAt: z.iso.datetime(),
});
export type IdleGame = z.infer<typeof IdleGame>;

export const idleGameCalls = {
  list: route({
    method: 'GET',
    path: '/identity/v1/manage/idlegames',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: Empty,
    response: z.array(IdleGame),
  }),
  /** Adds a game (adding one already listed changes nothing); answers the list. */
  add: route({
    method: 'POST',
    path: '/identity/v1/manage/idlegames',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    request: z.object({ AppId }),
    response: z.array(IdleGame),
  }),
  /** Removes one of the user's games; answers the list. */
  remove: route({
    method: 'DELETE',
    path: '/identity/v1/manage/idlegames/:appId',
    encrypted: true,
    auth: 'required',
    shape: 'envelope',
    params: z.object({ appId: pathId }),
    request: Empty,
    response: z.array(IdleGame),
  }),
};
