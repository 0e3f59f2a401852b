/** The console's status area: each service's state and note in every language, and maintenance mode, each change after a confirmation. */
import { useStore } from '@nanostores/react';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { noteFor, ServiceState, statusNoteMaxLength, statusTargetName, type ServiceStatus } from '#contract/status.ts';
import { Loading, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { locales, localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { browserConsole } from './environment.ts';
import { createStatusBoard, type StatusChange } from './status-store.ts';
import './console.css';

type T = AreaProps['t'];
type Board = ReturnType<typeof createStatusBoard>;

function ServiceEditor({ board, service, t }: { board: Board; service: ServiceStatus; t: T }) {
  const busy = useStore(board.$busy);
  const [change, setChange] = useState<StatusChange>({ key: service.Key, state: service.State, notes: { ...service.Note?.Texts } });
  const save = (event: FormEvent) => {
    event.preventDefault();
    void board.save(change);
  };
  return (
    <form className="form" onSubmit={save} data-service={service.Key}>
      <label>
        {t('console.status.state')}
        <select value={change.state} onChange={(event) => setChange({ ...change, state: event.currentTarget.value as StatusChange['state'] })}>
          {ServiceState.options.map((state) => (
            <option key={state} value={state}>
              {t(`status.state.${state}`)}
            </option>
          ))}
        </select>
      </label>
      <details>
        <summary>{t('console.status.notes')}</summary>
        {locales.map(({ code, tag, label }) => (
          <label key={code} lang={tag}>
            {label}
            <input
              name={`note-${code}`}
              lang={tag}
              value={change.notes[code] ?? ''}
              maxLength={statusNoteMaxLength}
              onChange={(event) => setChange({ ...change, notes: { ...change.notes, [code]: event.currentTarget.value } })}
            />
          </label>
        ))}
      </details>
      <div className="form-actions">
        <button type="submit" className="button" disabled={busy}>
          {t('console.status.save')}
        </button>
      </div>
    </form>
  );
}

function StatusArea({ t, locale }: { t: T; locale: LocaleCode }) {
  const [board] = useState(() => createStatusBoard(browserConsole.run));
  const services = useStore(board.$services);
  const maintenance = useStore(board.$maintenance);
  const incidents = useStore(board.$incidents);
  const notice = useStore(board.$notice);
  const dialog = useRef<HTMLDialogElement>(null);
  useEffect(() => void board.load(), [board]);
  if (!services) return <Loading text={t('common.loading')} />;
  return (
    <div className="console-sections">
      <NoticeLine notice={notice} t={t} />
      <section className="card" aria-labelledby="maintenance">
        <h2 id="maintenance">{t('console.status.maintenance')}</h2>
        <p data-maintenance={String(maintenance)}>{t(maintenance ? 'console.status.maintenanceIsOn' : 'console.status.maintenanceIsOff')}</p>
        <button type="button" className="button button-secondary" onClick={() => dialog.current?.showModal()}>
          {t(maintenance ? 'console.status.turnOff' : 'console.status.turnOn')}
        </button>
        <ConfirmDialog
          dialog={dialog}
          id="maintenance-confirm"
          question={t(maintenance ? 'console.status.confirmOff' : 'console.status.confirmOn')}
          confirm={t(maintenance ? 'console.status.turnOff' : 'console.status.turnOn')}
          cancel={t('console.orders.cancel')}
          onConfirm={() => void board.setMaintenance(!maintenance)}
          marker={{ 'data-confirm-maintenance': true }}
        />
      </section>
      <section className="card" aria-labelledby="incidents">
        <h2 id="incidents">{t('status.incidents')}</h2>
        {incidents.length === 0 ? (
          <p className="muted">{t('console.customers.none')}</p>
        ) : (
          <ul className="item-list" data-incidents>
            {incidents.map((incident) => (
              <li key={incident.Id}>
                <span className="item-main">
                  <strong>{statusTargetName(incident.Key, locale)}</strong>
                  <span className="muted">
                    {t('status.change', { from: t(`status.state.${incident.Previous}`), to: t(`status.state.${incident.State}`) })}
                    {incident.Note && <> · {noteFor(incident.Note, locale)?.text}</>}
                  </span>
                </span>
                <span className="muted">{formatDateTime(incident.At, locale)}</span>
              </li>
            ))}
          </ul>
        )}
      </section>
      <section className="card" aria-labelledby="services">
        <h2 id="services">{t('console.status.services')}</h2>
        <p className="muted">
          {t('console.status.publicBoard')} <a href={localizePath(locale, '/accelerate')}>{t('status.title')}</a>
        </p>
        <ul className="item-list" data-services>
          {services.map((service) => (
            <li key={service.Key} className="console-service">
              <span className="item-main">
                <strong>{statusTargetName(service.Key, locale)}</strong>
                <span className="muted">
                  {t(`status.state.${service.State}`)} · {t('console.status.since', { date: formatDateTime(service.Since, locale) })}
                </span>
              </span>
              <ServiceEditor board={board} service={service} t={t} />
            </li>
          ))}
        </ul>
      </section>
    </div>
  );
}

export default consoleIsland(StatusArea);
