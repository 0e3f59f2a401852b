/** The instant raffle page's world in the browser: the raffle pages' own, and localStorage for the client seed (its own file, so the other raffle pages do not load it). */
import { readJson, storageKeys, writeJson } from '@/lib/storage.ts';
import { browserEnvironment } from './environment.ts';
import type { InstantRaffleEnvironment } from './instant-raffle-store.ts';

export const instantEnvironment: InstantRaffleEnvironment = {
  ...browserEnvironment,
  seedStorage: {
    read: () => readJson<string>(storageKeys.raffleClientSeed),
    write: (seed) => writeJson(storageKeys.raffleClientSeed, seed),
  },
};
