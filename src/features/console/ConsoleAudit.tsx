/** The console's audit area, for admins: the audit log (sorted, paged and found by action, record, actor and days, kept in the URL; all of it as CSV) and who has which role. */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { operatorRoles, type AuditEntry, type OperatorRole } from '#contract/admin.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import {
  actionWords,
  auditList,
  createAudit,
  isWholeRecord,
  kindWords,
  recordWords,
  searchableActions,
  searchableKinds,
  type AuditSearch,
  type AuditSort,
} from './audit-store.ts';
import { DataTable, type Column } from './DataTable.tsx';
import { useListUrl } from './list-url.ts';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { browserConsole } from './environment.ts';
import { saveFile } from './save-file.ts';
import './console.css';

type T = AreaProps['t'];
type Audit = ReturnType<typeof createAudit>;

/** A record before or after, as the log keeps it. */
const shown = (value: unknown) => (value === null || value === undefined ? '—' : JSON.stringify(value));

/** An action in words of the operator's language; one no longer written (an older log's) as the log keeps it. */
function actionText(action: string, t: T): string {
  const key = actionWords(action);
  return key ? t(key) : action;
}

/** A record in words of the operator's language, its id as it is; one of no known kind as the log keeps it. */
function recordText(target: string, t: T): string {
  const read = recordWords(target);
  if (!read) return target;
  return read.id === null ? t(read.kind) : `${t(read.kind)} ${read.id}`;
}

/** The log's columns: when, the action and who sort; the record and the change as they are. */
function auditColumns(t: T, locale: LocaleCode): Array<Column<AuditEntry, AuditSort>> {
  return [
    {
      key: 'at',
      label: t('console.audit.at'),
      sort: 'at',
      first: 'desc',
      cell: (entry) => <time dateTime={entry.at}>{formatDateTime(entry.at, locale)}</time>,
    },
    { key: 'action', label: t('console.audit.action'), sort: 'action', cell: (entry) => <span data-action={entry.action}>{actionText(entry.action, t)}</span> },
    { key: 'target', label: t('console.audit.target'), cell: (entry) => (entry.target ? recordText(entry.target, t) : '—') },
    { key: 'actor', label: t('console.audit.actor'), sort: 'actor', cell: (entry) => (entry.address ? `${entry.actor} · ${entry.address}` : entry.actor) },
    {
      key: 'change',
      label: t('console.audit.change'),
      cell: (entry) => (
        <code className="console-change">
          {shown(entry.before)} → {shown(entry.after)}
        </code>
      ),
    },
  ];
}

function AuditLog({ audit, t, locale }: { audit: Audit; t: T; locale: LocaleCode }) {
  const entries = useStore(audit.$entries);
  const busy = useStore(audit.log.$busy);
  const notice = useStore(audit.log.$notice);
  const list = useListUrl(auditList, (state) => void audit.find(state));
  // The form as typed; the log follows it when it is sent.
  const [search, setSearch] = useState<AuditSearch>(list.state.filter);
  useEffect(() => setSearch(list.state.filter), [list.state.filter]);
  const find = (event: FormEvent) => {
    event.preventDefault();
    list.filter(search);
  };
  const download = async () => {
    const csv = await audit.exportCsv();
    if (csv !== undefined) saveFile(`audit-${new Date().toISOString().slice(0, 10)}.csv`, csv, 'text/csv');
  };
  const needsId = search.kind !== '' && !isWholeRecord(search.kind);
  return (
    <section className="card console-wide" aria-labelledby="audit-log">
      <h2 id="audit-log">{t('console.audit.log')}</h2>
      <form className="form console-filter" role="search" onSubmit={find} data-filter>
        <label>
          {t('console.audit.action')}
          <select
            name="action"
            value={search.action}
            onChange={(event) => setSearch({ ...search, action: event.currentTarget.value as AuditSearch['action'] })}
          >
            <option value="">{t('console.audit.anyAction')}</option>
            {searchableActions.map((action) => (
              <option key={action} value={action}>
                {actionText(action, t)}
              </option>
            ))}
          </select>
        </label>
        <label>
          {t('console.audit.target')}
          <select name="kind" value={search.kind} onChange={(event) => setSearch({ ...search, kind: event.currentTarget.value })}>
            <option value="">{t('console.audit.anyRecord')}</option>
            {searchableKinds.map((kind) => (
              <option key={kind} value={kind}>
                {t(kindWords(kind)!)}
              </option>
            ))}
          </select>
        </label>
        {needsId && (
          <label>
            {t('console.audit.recordId')}
            <input name="id" value={search.id} onChange={(event) => setSearch({ ...search, id: event.currentTarget.value })} required />
          </label>
        )}
        <label>
          {t('console.audit.actor')}
          <input name="actor" value={search.actor} onChange={(event) => setSearch({ ...search, actor: event.currentTarget.value })} maxLength={200} />
        </label>
        <label>
          {t('console.orders.since')}
          <input name="since" type="date" value={search.since} onChange={(event) => setSearch({ ...search, since: event.currentTarget.value })} />
        </label>
        <label>
          {t('console.orders.until')}
          <input name="until" type="date" value={search.until} onChange={(event) => setSearch({ ...search, until: event.currentTarget.value })} />
        </label>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {t('console.audit.find')}
          </button>
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => void download()} data-audit-export>
            {t('console.audit.export')}
          </button>
        </div>
      </form>
      <NoticeLine notice={notice} t={t} />
      <DataTable
        name="audit"
        caption={t('console.audit.log')}
        columns={auditColumns(t, locale)}
        page={entries}
        rowKey={(entry) => entry.id}
        list={list}
        busy={busy}
        locale={locale}
        t={t}
      />
    </section>
  );
}

function Operators({ audit, t, locale }: { audit: Audit; t: T; locale: LocaleCode }) {
  const operators = useStore(audit.$operators);
  const busy = useStore(audit.roles.$busy);
  const notice = useStore(audit.roles.$notice);
  const [user, setUser] = useState('');
  const [role, setRole] = useState<OperatorRole>('support');
  const dialog = useRef<HTMLDialogElement>(null);
  const [asked, setAsked] = useState<{ user: string; role: OperatorRole | null; label: string } | null>(null);
  const ask = (next: { user: string; role: OperatorRole | null; label: string }) => {
    setAsked(next);
    dialog.current?.showModal();
  };
  const grant = (event: FormEvent) => {
    event.preventDefault();
    if (user.trim()) ask({ user: user.trim(), role, label: user.trim() });
  };
  return (
    <section className="card" aria-labelledby="operators">
      <h2 id="operators">{t('console.audit.operators')}</h2>
      {operators === null ? (
        <Loading text={t('common.loading')} />
      ) : (
        <ul className="item-list" data-operators>
          {operators.map((operator) => (
            <li key={operator.userId} data-operator={operator.userId}>
              <span className="item-main">
                <strong>
                  {operator.nickname} · {t(`console.role.${operator.role}`)}
                </strong>
                <span className="muted">{[operator.userId, operator.phone, operator.email].filter(Boolean).join(' · ')}</span>
                {operator.lockedUntil && (
                  <span className="badge badge-red" data-locked-until>
                    {t('console.audit.lockedUntil', { time: formatDateTime(operator.lockedUntil, locale) })}
                  </span>
                )}
              </span>
              <span className="console-row-actions">
                {operator.lockedUntil && (
                  <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void audit.unlock(operator.userId)}>
                    {t('console.audit.unlock')}
                  </button>
                )}
                <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void audit.resetFactor(operator.userId)}>
                  {t('console.audit.resetFactor')}
                </button>
                <button
                  type="button"
                  className="button button-secondary button-small"
                  disabled={busy}
                  onClick={() => ask({ user: String(operator.userId), role: null, label: operator.nickname })}
                >
                  {t('console.audit.revoke')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      <form className="form console-filter" onSubmit={grant}>
        <label>
          {t('console.audit.user')}
          <input name="user" value={user} onChange={(event) => setUser(event.currentTarget.value)} required />
        </label>
        <label>
          {t('console.audit.role')}
          <select name="role" value={role} onChange={(event) => setRole(event.currentTarget.value as OperatorRole)}>
            {operatorRoles.map((name) => (
              <option key={name} value={name}>
                {t(`console.role.${name}`)}
              </option>
            ))}
          </select>
        </label>
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {t('console.audit.grant')}
          </button>
        </div>
      </form>
      <NoticeLine notice={notice} t={t} />
      <ConfirmDialog
        dialog={dialog}
        id="role-confirm"
        question={
          asked &&
          (asked.role
            ? t('console.audit.confirmGrant', { user: asked.label, role: t(`console.role.${asked.role}`) })
            : t('console.audit.confirmRevoke', { user: asked.label }))
        }
        confirm={t(asked?.role ? 'console.audit.grant' : 'console.audit.revoke')}
        cancel={t('console.orders.cancel')}
        onConfirm={() => {
          if (asked) void audit.setRole(asked.user, asked.role);
        }}
        marker={{ 'data-confirm-role': true }}
      />
    </section>
  );
}

function AuditArea({ t, locale }: { t: T; locale: LocaleCode }) {
  const [audit] = useState(() => createAudit(browserConsole.run));
  useEffect(() => {
    void audit.loadOperators();
  }, [audit]);
  return (
    <div className="console-sections console-wide">
      <Operators audit={audit} t={t} locale={locale} />
      <AuditLog audit={audit} t={t} locale={locale} />
    </div>
  );
}

export default consoleIsland(AuditArea);
