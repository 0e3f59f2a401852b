/** The plugin reviews' world in the browser: the API, for public reads and for the user's own calls with their token. */
import { call } from '@/lib/api/client.ts';
import type { PluginApi } from '@/stores/plugins.ts';
import { authCall } from '@/stores/session.ts';

export const browserEnvironment: PluginApi = { call, authCall };
