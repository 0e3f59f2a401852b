/** The console's raffles area: the raffles by kind and state, sorted and paged (kept in the URL), one with its winners, their messages and claims and what may be done to it now, and a new raffle from its definition and cover. */
import { useStore } from '@nanostores/react';
import { useRef, useState, type FormEvent } from 'react';
import { attachmentMaxBytes } from '#contract/admin.ts';
import { publicValueMaxLength } from '#contract/commands/raffle.ts';
import { RaffleKind, RaffleState } from '#contract/raffle.ts';
import { NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { consoleIsland, type AreaProps } from './ConsoleGate.tsx';
import { ConfirmDialog } from './ConfirmDialog.tsx';
import { browserConsole } from './environment.ts';
import type { RaffleShown } from '#contract/commands/raffle.ts';
import { createRaffles, definitionTemplate, rafflesList, type RaffleFilter, type RaffleSort, type RafflesPage } from './raffles-store.ts';
import { DataTable, type Column } from './DataTable.tsx';
import { useListUrl } from './list-url.ts';
import './console.css';

type T = AreaProps['t'];
type Raffles = ReturnType<typeof createRaffles>;

/** A file's bytes as base64, for a command's attachment. */
async function base64Of(file: File): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer());
  let binary = '';
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
}

function RaffleView({ raffles, shown, t, locale }: { raffles: Raffles; shown: RaffleShown; t: T; locale: LocaleCode }) {
  const busy = useStore(raffles.$busy);
  const entries = useStore(raffles.$entries);
  const [value, setValue] = useState('');
  const dialog = useRef<HTMLDialogElement>(null);
  const [asked, setAsked] = useState<'close' | 'draw'>('draw');
  const raffle = shown.raffle!;
  const when = (iso: string | null) => (iso ? formatDateTime(iso, locale) : '—');
  const registration = raffle.kind === 'registration';
  const ask = (which: 'close' | 'draw') => {
    setAsked(which);
    dialog.current?.showModal();
  };
  const enter = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim()) void raffles.enterValue(value);
  };
  return (
    <section className="card" aria-labelledby="raffle-shown" data-raffle={raffle.id} data-raffle-state={raffle.state}>
      <h2 id="raffle-shown">
        #{raffle.id} {raffle.title}
      </h2>
      <dl className="console-facts">
        <dt>{t('console.raffles.state')}</dt>
        <dd>{t(`console.raffles.stateName.${raffle.state}`)}</dd>
        <dt>{t('console.raffles.opens')}</dt>
        <dd>{when(raffle.opensAt)}</dd>
        <dt>{t('console.raffles.closes')}</dt>
        <dd>{when(raffle.closesAt)}</dd>
        {registration && (
          <>
            <dt>{t('console.raffles.drawAt')}</dt>
            <dd>{when(raffle.drawnAt ?? raffle.drawAt)}</dd>
            <dt>{t('console.raffles.publicValue')}</dt>
            <dd>{raffle.publicValue ?? '—'}</dd>
          </>
        )}
        <dt>{t('console.raffles.entrants')}</dt>
        <dd>{raffle.entrants}</dd>
        {raffle.stock !== null && (
          <>
            <dt>{t('console.raffles.stock')}</dt>
            <dd>{raffle.stock}</dd>
          </>
        )}
      </dl>
      {shown.winners.length > 0 && (
        <>
          <h3>{t('console.raffles.winners')}</h3>
          {shown.counts && (
            <p data-winner-counts>
              {t('console.raffles.counts', {
                winners: shown.counts.winners,
                told: shown.counts.told,
                reminded: shown.counts.reminded,
                claimed: shown.counts.claimed,
              })}
            </p>
          )}
          <ol className="item-list" data-winners>
            {shown.winners.map((winner) => (
              <li key={winner.place} data-winner={winner.number}>
                <span className="item-main">
                  <strong>{winner.prize}</strong>
                  <span className="muted" id={`winner-${winner.number}`}>
                    {t('console.raffles.winner', { number: winner.number, user: winner.userId ?? '—' })}
                  </span>
                </span>
                <span className="muted">
                  {winner.toldAt ? t('console.raffles.told', { date: when(winner.toldAt) }) : t('console.raffles.notTold')}
                  {winner.remindedAt && ` · ${t('console.raffles.reminded', { date: when(winner.remindedAt) })}`}
                  {' · '}
                  {winner.claimedAt ? t('console.raffles.claimed', { date: when(winner.claimedAt) }) : t('console.raffles.unclaimed')}
                </span>
                {!winner.claimedAt && winner.userId !== null && (
                  <button
                    type="button"
                    className="button button-secondary button-small"
                    disabled={busy}
                    aria-describedby={`winner-${winner.number}`}
                    onClick={() => void raffles.resend(winner.number)}
                  >
                    {t('console.raffles.resend')}
                  </button>
                )}
              </li>
            ))}
          </ol>
        </>
      )}
      {raffle.entrants > 0 &&
        (entries === null ? (
          <button type="button" className="button button-secondary button-small" disabled={busy} onClick={() => void raffles.entries()}>
            {t('console.raffles.showEntries')}
          </button>
        ) : (
          <>
            <h3>{t('console.raffles.entries')}</h3>
            <ul className="item-list" data-entries>
              {entries.map((entry) => (
                <li key={entry.number}>
                  <span className="muted">{t('console.raffles.winner', { number: entry.number, user: entry.userId ?? '—' })}</span>
                  <span className="muted">{when(entry.at)}</span>
                </li>
              ))}
            </ul>
          </>
        ))}
      <div className="form-actions">
        {raffle.state === 'upcoming' && (
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => void raffles.open()}>
            {t('console.raffles.open')}
          </button>
        )}
        {(raffle.state === 'upcoming' || raffle.state === 'open') && (
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => ask('close')}>
            {t('console.raffles.close')}
          </button>
        )}
        {registration && raffle.state !== 'drawn' && raffle.state !== 'canceled' && (
          <button type="button" className="button" disabled={busy} onClick={() => ask('draw')}>
            {t('console.raffles.draw')}
          </button>
        )}
      </div>
      {registration && raffle.state === 'closed' && (
        <form className="form" onSubmit={enter}>
          <label>
            {t('console.raffles.enterValue')}
            <span className="input-row">
              <input name="value" value={value} maxLength={publicValueMaxLength} onChange={(event) => setValue(event.currentTarget.value)} required />
              <button type="submit" className="button button-secondary" disabled={busy}>
                {t('console.raffles.save')}
              </button>
            </span>
            <span className="hint">{t('console.raffles.valueHint')}</span>
          </label>
        </form>
      )}
      <ConfirmDialog
        dialog={dialog}
        id="raffle-confirm"
        question={t(asked === 'draw' ? 'console.raffles.confirmDraw' : 'console.raffles.confirmClose', { title: raffle.title })}
        confirm={t(asked === 'draw' ? 'console.raffles.draw' : 'console.raffles.close')}
        cancel={t('console.orders.cancel')}
        onConfirm={() => void (asked === 'draw' ? raffles.draw() : raffles.close())}
        marker={{ 'data-confirm-raffle': asked }}
      />
    </section>
  );
}

function NewRaffle({ raffles, t }: { raffles: Raffles; t: T }) {
  const busy = useStore(raffles.$busy);
  const [definition, setDefinition] = useState(() => definitionTemplate());
  const [cover, setCover] = useState<File | null>(null);
  const [tooLarge, setTooLarge] = useState(false);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (tooLarge) return;
    await raffles.create(definition, cover ? await base64Of(cover) : undefined);
  };
  return (
    <section className="card" aria-labelledby="new-raffle">
      <h2 id="new-raffle">{t('console.raffles.new')}</h2>
      <form className="form" onSubmit={(event) => void submit(event)}>
        <label>
          {t('console.raffles.definition')}
          <textarea
            name="definition"
            className="console-keys"
            rows={14}
            value={definition}
            onChange={(event) => setDefinition(event.currentTarget.value)}
            spellCheck={false}
          />
          <span className="hint">{t('console.raffles.definitionHint')}</span>
        </label>
        <label>
          {t('console.raffles.cover')}
          <input
            name="cover"
            type="file"
            accept="image/png,image/jpeg,image/webp"
            onChange={(event) => {
              const file = event.currentTarget.files?.[0] ?? null;
              setCover(file);
              setTooLarge(Boolean(file && file.size > attachmentMaxBytes));
            }}
          />
          <span className="hint">{t('console.raffles.coverHint', { megabytes: attachmentMaxBytes / 1024 / 1024 })}</span>
        </label>
        {tooLarge && <p className="notice notice-error">{t('console.raffles.coverTooLarge', { megabytes: attachmentMaxBytes / 1024 / 1024 })}</p>}
        <div className="form-actions">
          <button type="submit" className="button" disabled={busy}>
            {t('console.raffles.create')}
          </button>
        </div>
      </form>
    </section>
  );
}

/** The raffles' columns: the title opens the raffle; opening, closing and entrants sort. */
function raffleColumns(raffles: Raffles, t: T, locale: LocaleCode): Array<Column<RafflesPage['rows'][number], RaffleSort>> {
  const when = (iso: string) => <time dateTime={iso}>{formatDateTime(iso, locale)}</time>;
  return [
    {
      key: 'title',
      label: t('console.raffles.title'),
      cell: (raffle) => (
        <button type="button" className="console-link" onClick={() => void raffles.show(raffle.id)}>
          #{raffle.id} {raffle.title}
        </button>
      ),
    },
    { key: 'kind', label: t('console.raffles.kindLabel'), cell: (raffle) => t(`console.raffles.kind.${raffle.kind}`) },
    { key: 'state', label: t('console.raffles.state'), cell: (raffle) => t(`console.raffles.stateName.${raffle.state}`) },
    { key: 'opens', label: t('console.raffles.opens'), sort: 'opens', first: 'desc', cell: (raffle) => when(raffle.opensAt) },
    { key: 'closes', label: t('console.raffles.closes'), sort: 'closes', first: 'desc', cell: (raffle) => when(raffle.closesAt) },
    { key: 'entrants', label: t('console.raffles.entrants'), sort: 'entrants', first: 'desc', numeric: true, cell: (raffle) => raffle.entrants },
  ];
}

function RafflesArea({ t, locale }: { t: T; locale: LocaleCode }) {
  const [raffles] = useState(() => createRaffles(browserConsole.run));
  const listed = useStore(raffles.$raffles);
  const shown = useStore(raffles.$raffle);
  const notice = useStore(raffles.$notice);
  const busy = useStore(raffles.$busy);
  const list = useListUrl(rafflesList, (state) => void raffles.list(state));
  const choose = (name: keyof RaffleFilter) => (event: { currentTarget: { value: string } }) =>
    list.filter({ ...list.state.filter, [name]: event.currentTarget.value });
  return (
    <>
      <NoticeLine notice={notice} t={t} />
      <div className="console-sections">
        {shown?.raffle && <RaffleView raffles={raffles} shown={shown} t={t} locale={locale} />}
        <section className="card console-wide" aria-labelledby="raffles">
          <h2 id="raffles">{t('console.raffles.all')}</h2>
          <form className="form console-filter" data-filter onSubmit={(event) => event.preventDefault()}>
            <label>
              {t('console.raffles.kindLabel')}
              <select name="kind" value={list.state.filter.kind} onChange={choose('kind')}>
                <option value="">{t('console.orders.any')}</option>
                {RaffleKind.options.map((kind) => (
                  <option key={kind} value={kind}>
                    {t(`console.raffles.kind.${kind}`)}
                  </option>
                ))}
              </select>
            </label>
            <label>
              {t('console.raffles.state')}
              <select name="state" value={list.state.filter.state} onChange={choose('state')}>
                <option value="">{t('console.orders.any')}</option>
                {RaffleState.options.map((state) => (
                  <option key={state} value={state}>
                    {t(`console.raffles.stateName.${state}`)}
                  </option>
                ))}
              </select>
            </label>
          </form>
          <DataTable
            name="raffles"
            caption={t('console.raffles.all')}
            columns={raffleColumns(raffles, t, locale)}
            page={listed}
            rowKey={(raffle) => raffle.id}
            list={list}
            busy={busy}
            locale={locale}
            t={t}
          />
        </section>
        <NewRaffle raffles={raffles} t={t} />
      </div>
    </>
  );
}

export default consoleIsland(RafflesArea);
