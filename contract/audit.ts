/**
 * What the audit log can say: every action the server writes, and the kinds of
 * record a line is about, each by the key of its words in the console's
 * dictionary (`console.audit.action.<key>`, `console.audit.record.<key>`). The
 * server's `recordAudit` takes only these, so a new action is added here, and
 * a test fails until every language has words for it. The log itself keeps
 * them in English (`role grant`, `user 12`), as the shell prints them.
 */

/** Every action, as the log keeps it → the key of its words. */
export const auditActions = {
  'role grant': 'roleGrant',
  'role revoke': 'roleRevoke',
  'role reset-factor': 'roleResetFactor',
  'role unlock': 'roleUnlock',
  'console sign-in': 'consoleSignIn',
  'console lockout': 'consoleLockout',
  'session end': 'sessionEnd',
  'idle set': 'idleSet',
  'product set': 'productSet',
  'order fulfil': 'orderFulfil',
  'order refund': 'orderRefund',
  'refund resolve': 'refundResolve',
  'invoice issue': 'invoiceIssue',
  'invoice refuse': 'invoiceRefuse',
  'maintenance on': 'maintenanceOn',
  'maintenance off': 'maintenanceOff',
  'cdkey create': 'cdkeyCreate',
  'cdkey export': 'cdkeyExport',
  'cdkey revoke': 'cdkeyRevoke',
  'donation hide': 'donationHide',
  'donation show': 'donationShow',
  'raffle create': 'raffleCreate',
  'raffle open': 'raffleOpen',
  'raffle close': 'raffleClose',
  'raffle value': 'raffleValue',
  'raffle draw': 'raffleDraw',
  'raffle resend': 'raffleResend',
  'evaluation hide': 'evaluationHide',
  'evaluation unhide': 'evaluationUnhide',
  'status set': 'statusSet',
  'keys rotate': 'keysRotate',
  backup: 'backup',
} as const;

export type AuditAction = keyof typeof auditActions;

/** Kinds of record named with an id (`user 12`, `order 2026…`, `batch spring`, a backup's `file /var/…`) → the key of their words. */
export const auditRecordKinds = {
  user: 'user',
  order: 'order',
  product: 'product',
  batch: 'batch',
  key: 'key',
  donation: 'donation',
  raffle: 'raffle',
  review: 'review',
  service: 'service',
  file: 'file',
} as const;

/** Records that are one of a kind, named without an id → the key of their words. */
export const auditWholeRecords = { payments: 'payments', 'server keys': 'serverKeys' } as const;

export type AuditRecordKind = keyof typeof auditRecordKinds;

/** What a line is about, as the server writes it: a kind and an id (`user 12`), or a record that is one of a kind. */
export type AuditTarget = `${AuditRecordKind} ${string}` | keyof typeof auditWholeRecords;

export const isAuditAction = (action: string): action is AuditAction => Object.hasOwn(auditActions, action);

/** A record as the log names it, read: the key of its kind's words and its id, or null for a name of no known kind (shown as it is). */
export function readAuditTarget(target: string): { words: 'serverKeys' | 'payments' | (typeof auditRecordKinds)[AuditRecordKind]; id: string | null } | null {
  if (Object.hasOwn(auditWholeRecords, target)) return { words: auditWholeRecords[target as keyof typeof auditWholeRecords], id: null };
  const space = target.indexOf(' ');
  const kind = target.slice(0, space);
  if (space < 1 || !Object.hasOwn(auditRecordKinds, kind)) return null;
  return { words: auditRecordKinds[kind as AuditRecordKind], id: target.slice(space + 1) };
}
