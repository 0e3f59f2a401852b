/**
 * A plugin's ratings and reviews: its default evaluation (the
 * average and the spread of stars), the user's own review to write, edit or
 * delete, and everyone's reviews, newest or most helpful first, which others
 * can mark helpful or report. Review text is shown as text, never as HTML.
 * It renders the reviews' stores and calls their actions; the logic is in
 * plugin-reviews-store.ts.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState, type SubmitEvent } from 'react';
import { pluginRules, ReportReason, type Evaluation, type OwnEvaluation, type Rating } from '#contract/plugins.ts';
import { Loading, LoginLink, NoticeLine } from '@/components/island.tsx';
import { LoadMore } from '@/components/LoadMore.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { formatNumber } from '@/i18n/numbers.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type Translate } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { $isLoggedIn } from '@/stores/session.ts';
import { browserEnvironment } from './environment.ts';
import { createPluginReviews } from './plugin-reviews-store.ts';
import { StarMeter, type StarIcons } from './StarMeter.tsx';
import './PluginReviews.css';

type Keys = KeysUnder<'plugin' | FailureMessageKey | 'common'>;
type Stores = ReturnType<typeof createPluginReviews>;

interface Props {
  slug: string;
  strings: Strings<Keys>;
  locale: LocaleCode;
  /** The icon set's SVGs, rendered by the page (so the island carries no icon set). */
  icons: StarIcons & { thumbsUp: string; flag: string };
}

interface Context {
  stores: Stores;
  t: Translate<Keys>;
  locale: LocaleCode;
  icons: Props['icons'];
}

const max = pluginRules.ratingMax;

export default function PluginReviews(props: Props) {
  // Prebuilt pages render the island without a visitor: what it shows depends on the browser's login and the API.
  const [inBrowser, setInBrowser] = useState(false);
  useEffect(() => setInBrowser(true), []);
  return inBrowser ? <Reviews {...props} /> : <Loading text={translator(props.strings)('common.loading')} />;
}

function Reviews({ slug, strings, locale, icons }: Props) {
  const t = translator(strings);
  const [stores] = useState(() => createPluginReviews(browserEnvironment, slug));
  const context: Context = { stores, t, locale, icons };
  const rating = useStore(stores.$rating);
  return (
    <div className="plugin-reviews">
      {rating.data ? <RatingSummary rating={rating.data} context={context} /> : <Loading text={t('common.loading')} />}
      <OwnReview context={context} />
      <ReviewList context={context} />
    </div>
  );
}

function RatingSummary({ rating, context: { t, locale, icons } }: { rating: Rating; context: Context }) {
  if (rating.Count === 0) return <p className="muted">{t('plugin.noRatings')}</p>;
  const average = formatNumber(rating.Average, locale, 1);
  return (
    <div className="rating-summary" data-rating-summary>
      <div className="rating-big">
        <strong data-average>{average}</strong>
        <StarMeter value={rating.Average} icons={icons} label={t('plugin.ratingAverage', { average, max })} />
        <span className="muted" data-count>
          {t('plugin.ratingCount', { count: formatNumber(rating.Count, locale) })}
        </span>
      </div>
      <ul className="rating-bars">
        {rating.Stars.map((count, index) => ({ stars: index + 1, count }))
          .reverse()
          .map(({ stars, count }) => (
            <li key={stars} aria-label={t('plugin.starsRow', { stars, max, count: formatNumber(count, locale) })}>
              <span aria-hidden="true">{stars}</span>
              <span className="rating-bar" aria-hidden="true">
                <span style={{ inlineSize: `${(count / rating.Count) * 100}%` }} />
              </span>
              <span aria-hidden="true">{formatNumber(count, locale)}</span>
            </li>
          ))}
      </ul>
    </div>
  );
}

function OwnReview({ context }: { context: Context }) {
  const { stores, t, locale } = context;
  const loggedIn = useStore($isLoggedIn);
  const own = useStore(stores.$own);
  const editing = useStore(stores.$editing);
  const busy = useStore(stores.$busy);
  const notice = useStore(stores.$notice);

  if (!loggedIn) {
    return (
      <section className="card own-review" aria-labelledby="own-review">
        <h3 id="own-review">{t('plugin.yourReview')}</h3>
        <LoginLink locale={locale} text={t('plugin.reviewsSignIn')} />
      </section>
    );
  }
  if (!own.data) return <Loading text={t('common.loading')} />;
  const mine = own.data.Evaluation;

  const remove = () => confirm(t('plugin.deleteConfirm')) && void stores.remove();

  return (
    <section className="card own-review" aria-labelledby="own-review" data-own-review>
      <h3 id="own-review">{t('plugin.yourReview')}</h3>
      {mine && !editing ? (
        <>
          {mine.Hidden && <p className="notice notice-warn">{t('plugin.hiddenNotice')}</p>}
          <ReviewBody evaluation={mine} context={context} />
          <div className="form-actions">
            <button type="button" className="button button-secondary button-small" onClick={stores.edit}>
              {t('plugin.edit')}
            </button>
            <button type="button" className="button button-secondary button-small" disabled={busy} onClick={remove}>
              {t('plugin.delete')}
            </button>
          </div>
        </>
      ) : (
        <ReviewForm existing={mine} context={context} busy={busy} cancel={mine ? stores.cancel : undefined} />
      )}
      <NoticeLine notice={notice} t={t} />
    </section>
  );
}

function ReviewForm({
  existing,
  context: { stores, t, locale, icons },
  busy,
  cancel,
}: {
  existing: OwnEvaluation['Evaluation'];
  context: Context;
  busy: boolean;
  cancel?: () => void;
}) {
  const rating = useStore(stores.$stars);
  const text = useStore(stores.$text);
  const left = useStore(stores.$left);

  function submit(event: SubmitEvent) {
    event.preventDefault();
    void stores.submit();
  }

  return (
    <form className="form review-form" onSubmit={submit} noValidate>
      <fieldset className="star-input">
        <legend>{t('plugin.yourRating')}</legend>
        {Array.from({ length: max }, (_, index) => index + 1).map((stars) => (
          <label key={stars} className={stars <= rating ? 'star-on' : undefined} title={t('plugin.rateStar', { stars, max })}>
            <input
              type="radio"
              name="rating"
              value={stars}
              checked={rating === stars}
              onChange={() => stores.$stars.set(stars)}
              aria-label={t('plugin.rateStar', { stars, max })}
            />
            <span dangerouslySetInnerHTML={{ __html: icons.star }} />
          </label>
        ))}
      </fieldset>
      <label>
        {t('plugin.reviewText')}
        <textarea
          name="review"
          rows={5}
          value={text}
          maxLength={pluginRules.textMaxLength}
          onChange={(event) => stores.$text.set((event.target as HTMLTextAreaElement).value)}
          aria-describedby="review-hint review-left"
        />
      </label>
      <p id="review-hint" className="hint">
        {t('plugin.reviewHint')}
      </p>
      <p id="review-left" className="hint" aria-live="polite">
        {t('plugin.charactersLeft', { count: formatNumber(left, locale) })}
      </p>
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {existing ? t('plugin.saveChanges') : t('plugin.publish')}
        </button>
        {cancel && (
          <button type="button" className="button button-secondary" onClick={cancel}>
            {t('plugin.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

/** Stars, author, date and the text — as text: whatever the author typed stays inert. */
function ReviewBody({ evaluation, context: { t, locale, icons } }: { evaluation: Evaluation; context: Context }) {
  const edited = evaluation.UpdatedAt !== evaluation.CreatedAt;
  return (
    <>
      <p className="review-head">
        <StarMeter value={evaluation.Rating} icons={icons} label={t('plugin.rated', { stars: evaluation.Rating, max })} />
        <strong>{evaluation.Author}</strong>
        <span className="muted">
          <time dateTime={evaluation.CreatedAt}>{formatDateTime(evaluation.CreatedAt, locale)}</time>
          {edited && ` · ${t('plugin.edited')}`}
        </span>
      </p>
      {evaluation.Text && (
        <p className="review-text" lang={evaluation.Locale} data-review-text>
          {evaluation.Text}
        </p>
      )}
    </>
  );
}

function ReviewList({ context }: { context: Context }) {
  const { stores, t } = context;
  const sort = useStore(stores.$sort);
  const list = useStore(stores.$reviews);
  const own = useStore(stores.$own);
  const loggedIn = useStore($isLoggedIn);

  const failure = useStore(stores.$listFailure);

  const choose = (next: 'newest' | 'helpful') => stores.$sort.set(next);
  return (
    <section className="review-section" aria-label={t('plugin.reviews')}>
      <div className="tabs" role="group" aria-label={t('plugin.sortLabel')}>
        <button type="button" aria-pressed={sort === 'helpful'} onClick={() => choose('helpful')}>
          {t('plugin.sortHelpful')}
        </button>
        <button type="button" aria-pressed={sort === 'newest'} onClick={() => choose('newest')}>
          {t('plugin.sortNewest')}
        </button>
      </div>
      {list.pages > 0 && list.items.length === 0 ? (
        <p className="muted">{t('plugin.noReviews')}</p>
      ) : (
        list.items.length > 0 && (
          <ul className="review-list">
            {list.items.map((evaluation) => (
              <li key={evaluation.Id} className="card" data-review={evaluation.Id}>
                <ReviewBody evaluation={evaluation} context={context} />
                <ReviewActions
                  evaluation={evaluation}
                  own={loggedIn ? (own.data ?? null) : null}
                  mine={own.data?.Evaluation?.Id === evaluation.Id}
                  context={context}
                />
              </li>
            ))}
          </ul>
        )
      )}
      {list.loading && <Loading text={t('common.loading')} />}
      <NoticeLine notice={failure} t={t} />
      {!list.loading && (list.pages === 0 || list.items.length < list.total) && (
        <LoadMore label={t('plugin.loadMore')} load={stores.loadMoreReviews} shown={list.items.length} />
      )}
    </section>
  );
}

/** Helpful and report, for someone else's review; a visitor sees the helpful count only. */
function ReviewActions({
  evaluation,
  own,
  mine,
  context: { stores, t, icons },
}: {
  evaluation: Evaluation;
  own: OwnEvaluation | null;
  mine: boolean;
  context: Context;
}) {
  const [actions] = useState(() => stores.reviewActions(evaluation.Id));
  const busy = useStore(actions.$busy);
  const notice = useStore(actions.$notice);
  const reporting = useStore(actions.$reporting);
  const reason = useStore(actions.$reason);
  const count = evaluation.Helpful;
  if (!own || mine) {
    return count > 0 ? <p className="muted review-actions">{t('plugin.helpfulCount', { count })}</p> : null;
  }
  const marked = own.Helpful.includes(evaluation.Id);
  const reported = own.Reported.includes(evaluation.Id);

  function sendReport(event: SubmitEvent) {
    event.preventDefault();
    void actions.sendReport();
  }

  return (
    <>
      <div className="review-actions">
        <button
          type="button"
          className="button button-secondary button-small"
          aria-pressed={marked}
          disabled={marked || busy}
          onClick={() => void actions.markHelpful()}
        >
          <span dangerouslySetInnerHTML={{ __html: icons.thumbsUp }} />
          {marked ? t('plugin.markedHelpful', { count }) : count > 0 ? t('plugin.helpfulCount', { count }) : t('plugin.helpful')}
        </button>
        <button type="button" className="button button-secondary button-small" aria-expanded={reporting} disabled={reported} onClick={actions.toggleReport}>
          <span dangerouslySetInnerHTML={{ __html: icons.flag }} />
          {reported ? t('plugin.reported') : t('plugin.report')}
        </button>
      </div>
      {reporting && (
        <form className="form report-form" onSubmit={sendReport}>
          <label>
            {t('plugin.reportReason')}
            <select value={reason} onChange={(event) => actions.$reason.set((event.target as HTMLSelectElement).value as ReportReason)}>
              {ReportReason.options.map((option) => (
                <option key={option} value={option}>
                  {t(`plugin.reason.${option}`)}
                </option>
              ))}
            </select>
          </label>
          <div className="form-actions">
            <button type="submit" className="button button-small" disabled={busy}>
              {t('plugin.sendReport')}
            </button>
          </div>
        </form>
      )}
      <NoticeLine notice={notice} t={t} />
    </>
  );
}
