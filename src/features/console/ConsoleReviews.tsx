/** The console's reviews area: the reported plugin reviews, each hidden or shown again with a reason the audit log keeps. */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type FormEvent } from 'react';
import type { EvaluationEntry } from '#contract/admin.ts';
import { reviewReasonMaxLength } from '#contract/commands/plugins.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import type { UiKey } from '@/i18n/strings.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { browserConsole } from './environment.ts';
import { createReviews } from './reviews-store.ts';
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

function ReviewsArea({ t, locale }: { t: T; locale: LocaleCode }) {
  const [reviews] = useState(() => createReviews(browserConsole.run));
  const listed = useStore(reviews.$reviews);
  const notice = useStore(reviews.$notice);
  useEffect(() => void reviews.load(), [reviews]);
  if (!listed) return <Loading text={t('common.loading')} />;
  return (
    <>
      <NoticeLine notice={notice} t={t} />
      {listed.length === 0 ? (
        <p className="muted">{t('console.reviews.none')}</p>
      ) : (
        <ul className="console-sections console-reviews" data-reviews>
          {listed.map((review) => (
            <Review key={review.id} reviews={reviews} review={review} t={t} locale={locale} />
          ))}
        </ul>
      )}
    </>
  );
}

export default consoleIsland(ReviewsArea);
