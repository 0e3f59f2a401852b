/** An order's timeline as the customer's order page and the console both show it: each step's words, when, and who took it. */
import type { OrderDetail } from '#contract/commerce.ts';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import type { Translate } from '@/i18n/strings.ts';

type SourceKey = `account.orderDetail.source.${OrderDetail['Timeline'][number]['Source']}`;

interface Props {
  timeline: OrderDetail['Timeline'];
  /** A step's words for its note (the note itself when there are none). */
  eventText: (note: string) => string;
  t: Translate<SourceKey>;
  locale: LocaleCode;
}

export function OrderTimeline({ timeline, eventText, t, locale }: Props) {
  return (
    <ol className="timeline" data-timeline>
      {timeline.map((event, index) => (
        <li key={index}>
          <strong>{eventText(event.Note)}</strong>
          <span className="muted">
            <time dateTime={event.At}>{formatDateTime(event.At, locale)}</time> · {t(`account.orderDetail.source.${event.Source}`)}
          </span>
        </li>
      ))}
    </ol>
  );
}
