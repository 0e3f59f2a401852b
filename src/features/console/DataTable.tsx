/**
 * A console list as a table: headers that sort (buttons, the sorted one with
 * aria-sort), one page of rows and a pager saying which rows of how many.
 * The list's sort, page and size come from its URL (`list`, list-url.ts); the
 * table only asks it for another sort or page. On a narrow screen the
 * table scrolls inside its own box, which takes the keyboard's focus.
 */
import { useId, type ReactNode } from 'react';
import type { SortDirection } from '#contract/list.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import type { Translate } from '@/i18n/strings.ts';
import type { ListControl } from './list-url.ts';
import './DataTable.css';

export interface Column<R, C extends string> {
  /** Unique among the table's columns. */
  key: string;
  label: string;
  /** The list's sort column this header sorts by; absent, the header does not sort. */
  sort?: C;
  /** The direction a first click sorts in: dates and amounts read best newest or largest first. */
  first?: SortDirection;
  /** Figures: aligned to the end. */
  numeric?: boolean;
  cell: (row: R) => ReactNode;
}

type TableKeys =
  'console.table.range' | 'console.table.sortBy' | 'console.table.empty' | 'common.previous' | 'common.next' | 'common.pagination' | 'common.pageOf';

interface Props<R, C extends string> {
  caption: string;
  columns: Array<Column<R, C>>;
  /** The list command's answer: its page of rows and how many in all; null while the first page loads. */
  page: { rows: R[]; total: number } | null;
  rowKey: (row: R) => string | number;
  list: ListControl<C>;
  busy?: boolean;
  locale: LocaleCode;
  t: Translate<TableKeys>;
  /** Marks the table for tests and styles (`data-table="orders"`). */
  name: string;
}

const ariaSort = { asc: 'ascending', desc: 'descending' } as const;

function SortMark({ dir }: { dir: SortDirection | null }) {
  // Both arrows when unsorted; the one of the direction when sorted.
  return (
    <svg className="data-table-mark" viewBox="0 0 10 14" width="10" height="14" aria-hidden="true" focusable="false">
      {dir !== 'desc' && <path d="M5 1 9 6H1Z" fill="currentColor" />}
      {dir !== 'asc' && <path d="M5 13 1 8h8Z" fill="currentColor" />}
    </svg>
  );
}

export function DataTable<R, C extends string>({ caption, columns, page, rowKey, list, busy, locale, t, name }: Props<R, C>) {
  const { query } = list.state;
  const rows = page?.rows ?? null;
  const total = page?.total ?? 0;
  const captionId = useId();
  const pages = Math.max(1, Math.ceil(total / query.size));
  const number = new Intl.NumberFormat(locale);
  const from = total === 0 ? 0 : (query.page - 1) * query.size + 1;
  const to = Math.min(total, query.page * query.size);
  return (
    <div className="data-table" data-table={name} aria-busy={busy || rows === null}>
      <div className="data-table-scroll" role="region" aria-labelledby={captionId} tabIndex={0}>
        <table>
          <caption id={captionId} className="visually-hidden">
            {caption}
          </caption>
          <thead>
            <tr>
              {columns.map((column) => {
                const sorted = column.sort !== undefined && column.sort === query.sort ? query.dir : null;
                return (
                  <th
                    key={column.key}
                    scope="col"
                    className={column.numeric ? 'numeric' : undefined}
                    aria-sort={column.sort === undefined ? undefined : sorted ? ariaSort[sorted] : 'none'}
                  >
                    {column.sort === undefined ? (
                      column.label
                    ) : (
                      <button
                        type="button"
                        className="data-table-sort"
                        data-sort={column.sort}
                        title={t('console.table.sortBy', { column: column.label })}
                        onClick={() => list.sort(column.sort!, sorted ? (sorted === 'asc' ? 'desc' : 'asc') : (column.first ?? 'asc'))}
                      >
                        {column.label}
                        <SortMark dir={sorted} />
                      </button>
                    )}
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            {rows?.map((row) => (
              <tr key={rowKey(row)}>
                {columns.map((column) => (
                  <td key={column.key} className={column.numeric ? 'numeric' : undefined}>
                    {column.cell(row)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
        {rows !== null && rows.length === 0 && <p className="muted data-table-empty">{t('console.table.empty')}</p>}
      </div>
      <nav className="data-table-pager" aria-label={t('common.pagination')}>
        <span className="muted" data-range aria-live="polite">
          {t('console.table.range', { from: number.format(from), to: number.format(to), total: number.format(total) })}
        </span>
        <span className="data-table-pages">
          <button type="button" className="button button-secondary button-small" disabled={busy || query.page <= 1} onClick={() => list.page(query.page - 1)}>
            {t('common.previous')}
          </button>
          <span className="muted">{t('common.pageOf', { page: number.format(query.page), pages: number.format(pages) })}</span>
          <button
            type="button"
            className="button button-secondary button-small"
            disabled={busy || query.page >= pages}
            onClick={() => list.page(query.page + 1)}
            data-next
          >
            {t('common.next')}
          </button>
        </span>
      </nav>
    </div>
  );
}
