/**
 * The acceleration status board's data: the board as the API answers it,
 * then every change the hub pushes, applied at once — so an open page follows
 * `status set` within the second, without polling.
 */
import { serviceStatusEvent, statusBoardIncidents, statusCacheMs, statusCalls, type StatusChange } from '#contract/status.ts';
import type { ResponseOf } from '#contract/api.ts';
import { call } from '@/lib/api/client.ts';
import { createFetcherStore, mutateCache } from '@/lib/api/query.ts';
import { publicHub } from './public-hub.ts';

type Board = ResponseOf<typeof statusCalls.board>;

const boardKey = 'status-board';

export const $statusBoard = createFetcherStore<Board>([boardKey], {
  fetcher: () => call(statusCalls.board, { fresh: true }),
  dedupeTime: statusCacheMs,
});

export const $statusConnection = publicHub.$state;

function apply({ Service, Incident }: StatusChange): void {
  const board = $statusBoard.get().data;
  if (!board || board.Incidents.some((incident) => incident.Id === Incident.Id)) return;
  mutateCache(boardKey, {
    Services: board.Services.map((item) => (item.Key === Service.Key ? Service : item)),
    Incidents: [Incident, ...board.Incidents].slice(0, statusBoardIncidents),
  });
}

/** Follows the hub's status pushes while the page shows the board; the returned function stops. */
export function followStatus(): () => void {
  const stop = publicHub.on(serviceStatusEvent, apply);
  const release = publicHub.follow();
  return () => {
    stop();
    release();
  };
}
