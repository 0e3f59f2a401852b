/**
 * `keys rotate`: a new server key pair for sealed calls, with the old one
 * still accepted for the rotation window (crypto/keyring.ts). It writes the
 * store the keys live in (the database with KEYS_SEALING_KEY, else the keys
 * folder); every instance on it, this one included, picks the new key up by itself.
 */
import { systemCommands } from '#contract/commands/system.ts';
import { commandsPlugin, handle } from '../../admin-command.ts';
import { table, time } from '../../admin-text.ts';
import { recordAudit } from '../../db/audit.ts';
import { messageCommands } from './message-commands.ts';

const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

export default commandsPlugin('system', [
  handle(systemCommands.rotateKeys, {
    async run(app, _args, { actor }) {
      const { keys, removed } = await app.keys.keyring.rotate();
      await recordAudit(app.db, actor, {
        action: 'keys rotate',
        target: 'server keys',
        before: null,
        after: { current: keys[0]?.fingerprint ?? null, removed },
      });
      return { command: 'keys rotate', keys: keys.map((key) => ({ fingerprint: key.fingerprint, acceptedUntil: iso(key.acceptedUntil) })), removed };
    },
    format: (result) =>
      `${table(
        ['PUBLIC KEY (SHA-256)', 'OPENS SEALED CALLS'],
        result.keys.map((key) => [key.fingerprint, key.acceptedUntil ? `until ${time(key.acceptedUntil)}` : 'current: served from now on']),
      )}\n\nEvery instance sharing these keys serves the new key from now on, without a restart; ${result.removed} retired key(s) past their window deleted.`,
  }),
  ...messageCommands,
]);
