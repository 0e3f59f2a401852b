/**
 * The live acceleration status (`accelerate`): every node region
 * and accelerated service with its state, since when, and the operators'
 * note; the latest changes; and the feeds to follow. The hub's pushes change
 * it in place, for every visitor, logged in or not.
 */
import { useStore } from '@nanostores/react';
import { useEffect } from 'react';
import { noteFor, statusFeedPaths, statusTargetName, statusTargets, type ServiceState, type ServiceStatus, type StatusIncident } from '#contract/status.ts';
import { FailureLine } from '@/components/FailureLine.tsx';
import { Loading } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type Translate } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { apiBase } from '@/lib/api/config.ts';
import { $statusBoard, $statusConnection, followStatus } from '@/stores/status.ts';
import './StatusBoard.css';

type Keys = KeysUnder<'status' | FailureMessageKey | 'common'>;

interface Props {
  strings: Strings<Keys>;
  locale: LocaleCode;
  /** The icon set's SVGs for each state, rendered by the page. */
  icons: Record<ServiceState, string>;
}

const badge: Record<ServiceState, string> = { up: 'badge-green', degraded: 'badge-orange', down: 'badge-red' };

export default function StatusBoard({ strings, locale, icons }: Props) {
  const t = translator(strings);
  const board = useStore($statusBoard);
  const connection = useStore($statusConnection);
  useEffect(() => followStatus(), []);

  if (!board.data) return board.error ? <FailureLine error={board.error} t={t} /> : <Loading text={t('common.loading')} reserve />;
  const { Services, Incidents } = board.data;
  const worst = Services.some((service) => service.State === 'down') ? 'down' : Services.some((service) => service.State === 'degraded') ? 'degraded' : 'up';
  const summary = { up: t('status.allUp'), degraded: t('status.someDegraded'), down: t('status.someDown') }[worst];
  const group = (kind: 'region' | 'service') => Services.filter((service) => statusTargets.find((target) => target.key === service.Key)?.kind === kind);
  const feed = (path: string) => `${apiBase}${path}?lang=${locale}`;

  return (
    <div className="status-board" data-status-board>
      <p className={`status-summary status-${worst}`} role="status">
        <span dangerouslySetInnerHTML={{ __html: icons[worst] }} />
        <strong>{summary}</strong>
        {/* Both texts take their room, one of them hidden, so the line never re-wraps when the connection changes. */}
        <span className="muted status-live" data-live={connection === 'Connected'}>
          <span>{t('status.live')}</span>
          <span>{t('status.notLive')}</span>
        </span>
      </p>
      <div className="status-groups">
        <ServiceGroup title={t('status.regions')} services={group('region')} t={t} locale={locale} icons={icons} />
        <ServiceGroup title={t('status.services')} services={group('service')} t={t} locale={locale} icons={icons} />
      </div>
      <IncidentList incidents={Incidents} t={t} locale={locale} />
      <p className="muted status-feeds">
        {t('status.feeds')} <a href={feed(statusFeedPaths.json)}>{t('status.feedJson')}</a> · <a href={feed(statusFeedPaths.atom)}>{t('status.feedAtom')}</a>
      </p>
    </div>
  );
}

function ServiceGroup({
  title,
  services,
  t,
  locale,
  icons,
}: {
  title: string;
  services: ServiceStatus[];
  t: Translate<Keys>;
  locale: LocaleCode;
  icons: Props['icons'];
}) {
  return (
    <section className="card" aria-label={title}>
      <h3>{title}</h3>
      <ul className="status-list">
        {services.map((service) => {
          const note = service.Note && noteFor(service.Note, locale);
          return (
            <li key={service.Key} data-service={service.Key} data-state={service.State}>
              <span className="status-name">{statusTargetName(service.Key, locale)}</span>
              <span className={`badge ${badge[service.State]}`}>
                <span dangerouslySetInnerHTML={{ __html: icons[service.State] }} />
                {t(`status.state.${service.State}`)}
              </span>
              <span className="muted status-since">{t('status.since', { time: formatDateTime(service.Since, locale) })}</span>
              {note && (
                <span className="status-note" lang={note.locale}>
                  {note.text}
                </span>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}

function IncidentList({ incidents, t, locale }: { incidents: StatusIncident[]; t: Translate<Keys>; locale: LocaleCode }) {
  const state = (value: ServiceState) => t(`status.state.${value}`);
  return (
    <section aria-labelledby="status-incidents">
      <h3 id="status-incidents">{t('status.incidents')}</h3>
      {incidents.length === 0 ? (
        <p className="muted">{t('status.noIncidents')}</p>
      ) : (
        <ol className="item-list status-incidents" data-incidents>
          {incidents.map((incident) => {
            const note = incident.Note && noteFor(incident.Note, locale);
            return (
              <li key={incident.Id} id={`incident-${incident.Id}`}>
                <span className="item-main">
                  <strong>{statusTargetName(incident.Key, locale)}</strong>
                  <span>{t('status.change', { from: state(incident.Previous), to: state(incident.State) })}</span>
                  {note && (
                    <span className="muted" lang={note.locale}>
                      {note.text}
                    </span>
                  )}
                </span>
                <time className="muted" dateTime={incident.At}>
                  {formatDateTime(incident.At, locale)}
                </time>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
