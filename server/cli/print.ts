/** Operators' command results as text for a terminal (`--json` prints them as they are). */
import path from 'node:path';
import type { BackupCounts, CommandResult, DonationEntry, EvaluationEntry, RaffleSummary, UserDetail } from '#contract/admin.ts';
import type { ServiceStatus } from '#contract/status.ts';
import type { CloudIdleStatus } from '#contract/realtime.ts';
import type { Order, Product } from '#contract/commerce.ts';
import type { CdkeyGrant } from '#contract/activation.ts';

/** 2026-05-20T10:31:12.345Z → 2026-05-20 10:31:12Z: to the second is enough on a terminal. */
const time = (iso: string) => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');
const orDash = (value: string | null) => value ?? '-';

/** Left-aligned columns, two spaces apart. */
function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

function userDetail(user: UserDetail): string {
  const facts = table(
    ['User', String(user.id)],
    [
      ['phone', orDash(user.phone)],
      ['email', orDash(user.email)],
      ['nickname', user.nickname],
      ['password', user.hasPassword ? 'set' : 'not set'],
      ['created', time(user.createdAt)],
    ],
  );
  const accounts = user.externalAccounts.length
    ? indent(
        table(
          ['ID', 'PROVIDER', 'SUBJECT', 'NAME', 'BOUND'],
          user.externalAccounts.map((a) => [a.id, a.provider, a.subject, a.displayName, time(a.boundAt)]),
        ),
      )
    : '  none';
  const sessions = user.activeSessions.length
    ? indent(
        table(
          ['SESSION', 'DEVICE', 'DEVICE ID', 'SIGNED IN', 'LAST SEEN'],
          user.activeSessions.map((s) => [s.id, s.device, s.deviceId, time(s.createdAt), time(s.lastSeenAt)]),
        ),
      )
    : '  none';
  return `${facts}\n\nExternal accounts (${user.externalAccounts.length})\n${accounts}\n\nActive sessions (${user.activeSessions.length})\n${sessions}`;
}

function cloudIdle(userId: number, status: CloudIdleStatus): string {
  const facts = table(
    ['Cloud idling of user', String(userId)],
    [
      ['state', status.State],
      ['cards remaining', String(status.CardsRemaining)],
      ['updated', time(status.UpdatedAt)],
    ],
  );
  const games = status.Games.length
    ? indent(
        table(
          ['APP ID', 'CARDS LEFT', 'NAME'],
          status.Games.map((g) => [g.AppId, g.CardsRemaining, g.Name]),
        ),
      )
    : '  none';
  return `${facts}\n\nGames being idled (${status.Games.length})\n${games}`;
}

/** Minor units as a decimal: 12345 → 123.45. */
const money = (minor: number | null, currency = '') => (minor === null ? '-' : `${(minor / 100).toFixed(2)}${currency ? ` ${currency}` : ''}`);

function productRow(p: Product & { Active: boolean }): Array<string | number> {
  const what =
    p.Kind === 'membership'
      ? `${p.Months} month(s) for ${money(p.Price, 'CNY')}`
      : `${p.Currency} (${p.Region}) at ${(p.RatePpm ?? 0) / 1e6} fen/unit; presets ${p.Presets.map((a) => money(a)).join(', ')}; custom ${money(p.MinAmount)}–${money(p.MaxAmount)}`;
  return [p.Code, p.Kind, p.Active ? 'yes' : 'no', what];
}

function orderRow(o: Order & { UserId: number | null }): Array<string | number> {
  const item = o.Item.Kind === 'membership' ? `${o.Item.Months} month(s)` : `${money(o.Item.Amount, o.Item.Currency ?? '')} to ${o.Item.SteamId}`;
  return [o.Key, o.UserId ?? '-', o.State, o.Item.Product, item, money(o.Price, 'CNY'), orDash(o.Method), time(o.CreatedAt)];
}

const orderHeaders = ['ORDER', 'USER', 'STATE', 'PRODUCT', 'ITEM', 'PRICE', 'PAID BY', 'CREATED'];

const grantText = (grant: CdkeyGrant) =>
  grant.Kind === 'wallet'
    ? `${money(grant.Amount, 'CNY')} to the wallet`
    : grant.Kind === 'membership'
      ? `${grant.Days} day(s) of cloud idling`
      : `a ${grant.Product} recharge of ${grant.Amount}`;

const donationHeaders = ['ID', 'USER', 'FEN', 'NAME', 'HIDDEN', 'AT'];
const donationRow = (entry: DonationEntry) => [
  entry.id,
  entry.userId ?? '(deleted)',
  entry.amount,
  orDash(entry.name),
  entry.hidden ? 'yes' : 'no',
  time(entry.at),
];

const evaluationHeaders = ['ID', 'PLUGIN', 'USER', 'STARS', 'HELPFUL', 'REPORTS', 'REASONS', 'HIDDEN', 'CREATED'];
const evaluationRow = (entry: EvaluationEntry) => [
  entry.id,
  entry.plugin,
  entry.userId,
  entry.rating,
  entry.helpful,
  entry.reports,
  entry.reasons.join(',') || '-',
  entry.hidden ? 'yes' : 'no',
  time(entry.createdAt),
];

const statusHeaders = ['SERVICE', 'STATE', 'SINCE', 'NOTE'];
const statusRow = (service: ServiceStatus) => [
  service.Key,
  service.State,
  time(service.Since),
  service.Note ? (service.Note.Texts[service.Note.Fallback] ?? '-') : '-',
];

/** What a backup holds, in words. */
const backupCounts = (counts: BackupCounts) =>
  `${counts.users} users, ${counts.orders} orders, ${counts.ledgerEntries} wallet ledger entries, ${counts.raffles} raffles with ${counts.raffleEntries} registrations, ${counts.files} uploaded files`;

const size = (bytes: number) => (bytes < 1_000_000 ? `${Math.ceil(bytes / 1000)} kB` : `${(bytes / 1_000_000).toFixed(1)} MB`);

const noUser = (key: string) => `No user with id, phone or e-mail "${key}".`;

/** The text for a result (the caller prints a missing user's to stderr). */
const raffleHeaders = ['ID', 'KIND', 'TITLE', 'STATE', 'OPENS', 'CLOSES', 'DRAW', 'ENTRANTS', 'STOCK'];
const raffleRow = (raffle: RaffleSummary) => [
  raffle.id,
  raffle.kind,
  raffle.title,
  raffle.state,
  time(raffle.opensAt),
  time(raffle.closesAt),
  raffle.drawAt ? time(raffle.drawAt) : '-',
  raffle.entrants,
  raffle.stock ?? '-',
];

function raffleDetail(result: Extract<CommandResult, { raffle: unknown }>): string {
  const { raffle, winners } = result;
  if (!raffle) return 'No such raffle (raffle list shows the ids).';
  const proof = raffle.commitment
    ? `\n\nCommitment    ${raffle.commitment}\nPublic source ${raffle.publicSource?.en ?? '-'}\nPublic value  ${orDash(raffle.publicValue)}\nDrawn         ${raffle.drawnAt ? time(raffle.drawnAt) : '-'}`
    : '';
  const drawn = winners.length
    ? `\n\nWinners (${winners.length})\n${indent(
        table(
          ['PLACE', 'NUMBER', 'USER', 'PRIZE', 'CLAIMED'],
          winners.map((w) => [w.place, w.number, w.userId ?? '(deleted)', w.prize, w.claimedAt ? time(w.claimedAt) : '-']),
        ),
      )}`
    : '';
  const refused = result.refused ? `\n\nNothing done: ${result.refused}.` : '';
  const pushed =
    result.command === 'raffle draw' && !result.refused
      ? `\n\n${result.pushed ? 'Open raffle pages were told.' : 'No server could be reached to tell open pages; they see the draw on their next load.'}`
      : '';
  return `${table(raffleHeaders, [raffleRow(raffle)])}${proof}${drawn}${refused}${pushed}`;
}

export function formatResult(result: CommandResult): string {
  switch (result.command) {
    case 'users list':
      if (result.users.length === 0) return 'No users yet.';
      return table(
        ['ID', 'PHONE', 'EMAIL', 'NICKNAME', 'CREATED', 'SESSIONS'],
        result.users.map((user) => [user.id, orDash(user.phone), orDash(user.email), user.nickname, time(user.createdAt), user.activeSessions]),
      );
    case 'users show':
      return result.user ? userDetail(result.user) : noUser(result.key);
    case 'idle show':
      if (result.userId === null) return noUser(result.key);
      return result.status ? cloudIdle(result.userId, result.status) : `User ${result.userId} has no cloud-idling status yet.`;
    case 'idle set':
      if (result.userId === null || !result.status) return noUser(result.key);
      return `${cloudIdle(result.userId, result.status)}\n\n${
        result.pushed
          ? "Saved and pushed to the user's open pages."
          : 'Saved. No server was running to push it to (set REDIS_URL to push through Redis): open pages show it when they next load.'
      }`;
    case 'idle games':
      if (result.userId === null || !result.games) return noUser(result.key);
      if (result.games.length === 0) return `User ${result.userId} has no games on their list.`;
      return table(
        ['APP ID', 'NAME', 'ADDED'],
        result.games.map((game) => [game.AppId, game.Name ?? '(not in the bundled list)', time(game.AddedAt)]),
      );
    case 'product list':
      return result.products.length ? table(['CODE', 'KIND', 'ON SALE', 'WHAT'], result.products.map(productRow)) : 'No products yet.';
    case 'product set':
      return table(['CODE', 'KIND', 'ON SALE', 'WHAT'], [productRow(result.product)]);
    case 'order list':
      return result.orders.length ? table(orderHeaders, result.orders.map(orderRow)) : 'No orders.';
    case 'order fulfil':
    case 'order refund':
      if (!result.order) return `Order ${result.key}: ${result.refused ?? 'not found'}`;
      return `${table(orderHeaders, [orderRow(result.order)])}\n\n${result.pushed ? "Pushed to the customer's open pages." : 'No server was running to push it: open pages show it when they next load.'}`;
    case 'maintenance on':
    case 'maintenance off':
    case 'maintenance status':
      return result.maintenance ? 'Payments are paused for maintenance.' : 'Payments are open.';
    case 'cdkey create':
    case 'cdkey export':
    case 'cdkey show': {
      if (!result.batch) return 'No such batch.';
      const { batch } = result;
      const about = `Batch ${batch.name}: ${grantText(batch.grant)}; ${batch.count} keys, ${batch.used} used, ${batch.revoked} revoked; ${batch.expiresAt ? `expires ${time(batch.expiresAt)}` : 'never expires'}.`;
      return result.keys.length ? `${about}\n\n${result.keys.join('\n')}` : about;
    }
    case 'cdkey revoke':
      return `${result.revoked} key(s) revoked.`;
    case 'cdkey check': {
      const { state } = result;
      if (!state) return `No key ${result.key} was ever made (or it is mistyped).`;
      const used = state.usedAt
        ? `used by user ${state.usedBy ?? '(deleted)'} at ${time(state.usedAt)}${state.order ? `, order ${state.order}` : ''}`
        : 'not used';
      return `Batch ${state.batch}: ${grantText(state.grant)}; ${used}${state.revokedAt ? `; revoked at ${time(state.revokedAt)}` : ''}.`;
    }
    case 'donation list':
      return result.donations.length ? table(donationHeaders, result.donations.map(donationRow)) : 'No named donations.';
    case 'donation hide':
    case 'donation show':
      if (!result.donation) return 'No such donation (donation list shows the ids).';
      return `${table(donationHeaders, [donationRow(result.donation)])}\n\n${result.donation.hidden ? 'The name is off the sponsor page.' : 'The name is on the sponsor page.'}`;
    case 'raffle list':
      return result.raffles.length ? table(raffleHeaders, result.raffles.map(raffleRow)) : 'No raffles yet.';
    case 'raffle create':
    case 'raffle show':
    case 'raffle close':
    case 'raffle value':
    case 'raffle draw':
      return raffleDetail(result);
    case 'evaluation reported':
      return result.evaluations.length ? table(evaluationHeaders, result.evaluations.map(evaluationRow)) : 'No reported reviews.';
    case 'evaluation show':
    case 'evaluation hide':
    case 'evaluation unhide': {
      if (!result.evaluation) return 'No such review (evaluation reported shows the ids).';
      const state = result.evaluation.hidden ? 'Hidden: off the site and out of the rating.' : 'Visible on the site and counted in the rating.';
      return `${table(evaluationHeaders, [evaluationRow(result.evaluation)])}\n\n${result.evaluation.text || '(no text)'}\n\n${state}`;
    }
    case 'status list':
      return table(statusHeaders, result.services.map(statusRow));
    case 'status set':
      return `${table(statusHeaders, [statusRow(result.service)])}\n\n${
        result.pushed ? 'Open accelerate pages were told.' : 'No server could be reached to tell open pages; they see it on their next load.'
      }`;
    case 'backup':
      if (!result.saved) return `${result.refused}`;
      return `Saved ${result.file} (${size(result.saved.bytes)}): ${backupCounts(result.saved.counts)}.\n\nThe server's keys (DATA_DIR/keys) are not in it: keep a copy of that folder apart from the backups (docs/backup.md).`;
    case 'restore':
      if (!result.counts) return `${result.refused}`;
      if (result.refused) return `${result.refused}\nIt holds ${backupCounts(result.counts)}.`;
      return `Restored ${result.file} into ${result.into}: ${backupCounts(result.counts)}, as when it was saved.\n\nTo run the server on it, copy the server's keys folder to ${path.join(result.into, 'keys')} and start it with\n  DATA_DIR=${result.into} DATABASE_URL=file://${path.join(result.into, 'db')}`;
    case 'migrations status':
      return table(
        ['MIGRATION', 'CREATED', 'APPLIED'],
        result.migrations.map((migration) => [migration.tag, time(migration.createdAt), migration.applied ? 'yes' : 'no']),
      );
    case 'keys rotate':
      return `${table(
        ['PUBLIC KEY (SHA-256)', 'OPENS SEALED CALLS'],
        result.keys.map((key) => [key.fingerprint, key.acceptedUntil ? `until ${time(key.acceptedUntil)}` : 'current: served from now on']),
      )}\n\nEvery instance sharing this keys folder serves the new key from now on, without a restart; ${result.removed} retired key(s) past their window deleted.`;
  }
}
