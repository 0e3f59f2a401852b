/** Previous and next for a paged list (24 a page, the first is 1). */
import { pageSize } from '#contract/paging.ts';
import type { Translate } from '@/i18n/strings.ts';

interface Props {
  page: number;
  total: number;
  go: (page: number) => void;
  t: Translate<'common.previous' | 'common.next' | 'common.pageOf' | 'common.pagination'>;
}

export function Pager({ page, total, go, t }: Props) {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages === 1) return null;
  return (
    <nav className="form-actions" aria-label={t('common.pagination')}>
      <button type="button" className="button button-secondary button-small" disabled={page <= 1} onClick={() => go(page - 1)}>
        {t('common.previous')}
      </button>
      <span className="muted">{t('common.pageOf', { page, pages })}</span>
      <button type="button" className="button button-secondary button-small" disabled={page >= pages} onClick={() => go(page + 1)}>
        {t('common.next')}
      </button>
    </nav>
  );
}
