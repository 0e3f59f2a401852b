/**
 * The page's connection for what the hub tells everyone — acceleration
 * status, raffle counts and draws — made without a login, so public pages
 * are live for every visitor.
 */
import { hubPath } from '#contract/realtime.ts';
import { apiBase } from '@/lib/api/config.ts';
import { createHubClient } from '@/lib/realtime/hub-client.ts';

export const publicHub = createHubClient({ url: `${apiBase}${hubPath}` });
