/** The console's reviews area: the reported plugin reviews, sorted, paged and filtered (kept in the URL), each opened and hidden or shown again with a reason the audit log keeps. */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import type { EvaluationEntry } from '#contract/admin.ts';
import { reviewReasonMaxLength } from '#contract/commands/plugins.ts';
import { NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import type { UiKey } from '@/i18n/strings.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { browserConsole } from './environment.ts';
import { createReviews, reviewsList, type ReviewFilter, type ReviewSort } from './reviews-store.ts';
import { DataTable, type Column } from './DataTable.tsx';
import { useListUrl } from './list-url.ts';
import './console.css';

type T = AreaProps['t'];
type Reviews = ReturnType<typeof createReviews>;

function Review({ reviews, review, t, locale }: { reviews: Reviews; review: EvaluationEntry; t: T; locale: LocaleCode }) {
  const busy = useStore(reviews.$busy);
  const [reason, setReason] = useState('');
  const decide = (event: FormEvent) => {
    event.preventDefault();
    void reviews.setHidden(review.id, !review.hidden, reason);
  };
  return (
    <li className="card" data-review={review.id} data-hidden={String(review.hidden)}>
      <p>
        <strong>
          {review.plugin} · {t('console.reviews.rating', { rating: review.rating })}
        </strong>{' '}
        <span className="muted">
          · {t('console.reviews.by', { user: review.userId })} · <time dateTime={review.createdAt}>{formatDateTime(review.createdAt, locale)}</time>
        </span>
      </p>
      <blockquote className="console-quote">{review.text || t('console.reviews.noText')}</blockquote>
      <p className="muted">
        {t('console.reviews.reports', { count: review.reports })}
        {review.reasons.length > 0 && <> · {review.reasons.map((reason) => t(`plugin.reason.${reason}` as UiKey)).join(', ')}</>}
      </p>
      <p>{t(review.hidden ? 'console.reviews.isHidden' : 'console.reviews.isVisible')}</p>
      <form className="form" onSubmit={decide}>
        <label>
          {t('console.reviews.reason')}
          <input name="reason" value={reason} maxLength={reviewReasonMaxLength} onChange={(event) => setReason(event.currentTarget.value)} />
        </label>
        <div className="form-actions">
          <button type="submit" className={review.hidden ? 'button button-secondary' : 'button'} disabled={busy}>
            {t(review.hidden ? 'console.reviews.show' : 'console.reviews.hide')}
          </button>
        </div>
      </form>
    </li>
  );
}

/** The reviews' columns: the plugin opens the review below; stars, reports and when written sort. */
function reviewColumns(open: (id: number) => void, t: T, locale: LocaleCode): Array<Column<EvaluationEntry, ReviewSort>> {
  return [
    {
      key: 'plugin',
      label: t('console.reviews.plugin'),
      cell: (review) => (
        <button type="button" className="console-link" onClick={() => open(review.id)}>
          {review.plugin} #{review.id}
        </button>
      ),
    },
    { key: 'rating', label: t('console.reviews.stars'), sort: 'rating', numeric: true, cell: (review) => review.rating },
    { key: 'reports', label: t('console.reviews.reported'), sort: 'reports', first: 'desc', numeric: true, cell: (review) => review.reports },
    {
      key: 'created',
      label: t('console.reviews.written'),
      sort: 'created',
      first: 'desc',
      cell: (review) => <time dateTime={review.createdAt}>{formatDateTime(review.createdAt, locale)}</time>,
    },
    { key: 'shown', label: t('console.raffles.state'), cell: (review) => t(review.hidden ? 'console.reviews.stateHidden' : 'console.reviews.stateVisible') },
  ];
}

function ReviewsArea({ t, locale }: { t: T; locale: LocaleCode }) {
  const [reviews] = useState(() => createReviews(browserConsole.run));
  const listed = useStore(reviews.$reviews);
  const notice = useStore(reviews.$notice);
  const busy = useStore(reviews.$busy);
  const list = useListUrl(reviewsList, (state) => void reviews.list(state));
  const [filter, setFilter] = useState<ReviewFilter>(list.state.filter);
  useEffect(() => setFilter(list.state.filter), [list.state.filter]);
  const [openId, setOpenId] = useState<number | null>(null);
  const opened = listed?.rows.find((review) => review.id === openId);
  return (
    <>
      <NoticeLine notice={notice} t={t} />
      {opened && (
        <ul className="console-sections console-reviews" data-reviews>
          <Review reviews={reviews} review={opened} t={t} locale={locale} />
        </ul>
      )}
      <div className="console-sections">
        <section className="card console-wide" aria-labelledby="reviews-list">
          <h2 id="reviews-list">{t('console.reviews.all')}</h2>
          <form
            className="form console-filter"
            data-filter
            onSubmit={(event) => {
              event.preventDefault();
              list.filter(filter);
            }}
          >
            <label>
              {t('console.raffles.state')}
              <select
                name="shown"
                value={filter.shown}
                onChange={(event) => setFilter({ ...filter, shown: event.currentTarget.value as ReviewFilter['shown'] })}
              >
                <option value="">{t('console.orders.any')}</option>
                <option value="visible">{t('console.reviews.stateVisible')}</option>
                <option value="hidden">{t('console.reviews.stateHidden')}</option>
              </select>
            </label>
            <label>
              {t('console.reviews.plugin')}
              <input name="plugin" value={filter.plugin} onChange={(event) => setFilter({ ...filter, plugin: event.currentTarget.value })} maxLength={80} />
            </label>
            <div className="form-actions">
              <button type="submit" className="button" disabled={busy}>
                {t('console.orders.filter')}
              </button>
            </div>
          </form>
          <DataTable
            name="reviews"
            caption={t('console.reviews.all')}
            columns={reviewColumns(setOpenId, t, locale)}
            page={listed}
            rowKey={(review) => review.id}
            list={list}
            busy={busy}
            locale={locale}
            t={t}
          />
        </section>
      </div>
    </>
  );
}

export default consoleIsland(ReviewsArea);
