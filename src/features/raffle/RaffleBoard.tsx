/**
 * The registration raffle (`/raffle`): the current raffle, or the one
 * `?id=` names, with its prizes, a countdown and the live registration count;
 * registering and the participation number; after the draw the user's own
 * result and prize claim, the paged winners, and the proof to check it; then
 * every raffle, past and present. It renders the page's stores and calls
 * their actions; the logic is in raffle-board-store.ts.
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { pageSize } from '#contract/paging.ts';
import type { RaffleInfo, RaffleState } from '#contract/raffle.ts';
import { Loading, LoginLink, NoticeLine } from '@/components/island.tsx';
import { Pager } from '@/components/Pager.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type Translate } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { $isLoggedIn } from '@/stores/session.ts';
import { browserEnvironment } from './environment.ts';
import { createRaffleBoard } from './raffle-board-store.ts';
import { idInQuery, prizeGrant, prizeName, textIn, timeLeft } from './raffle-text.ts';
import './raffle.css';

type Keys = KeysUnder<'raffle.board' | 'account.redemption.grant' | FailureMessageKey | 'common'>;

interface Props {
  strings: Strings<Keys>;
  locale: LocaleCode;
}

const badge: Record<RaffleState, string> = {
  upcoming: 'badge-blue',
  open: 'badge-green',
  closed: 'badge-orange',
  drawn: 'badge-purple',
  canceled: 'badge-red',
};

/** When a raffle's draw was, once it was drawn, or when it is planned. */
const when = (raffle: RaffleInfo) => raffle.DrawnAt ?? raffle.DrawAt;

export default function RaffleBoard({ strings, locale }: Props) {
  const t = translator(strings);
  const [stores] = useState(() => createRaffleBoard(browserEnvironment, idInQuery('id') ?? 'current'));
  const info = useStore(stores.$info);
  const problem = useStore(stores.$problem);
  useEffect(() => stores.follow(), []);

  return (
    <div className="raffle-board">
      {info.data ? (
        <RaffleCard raffle={info.data} stores={stores} t={t} locale={locale} />
      ) : problem === 'none' ? (
        <p className="card">{t('raffle.board.none')}</p>
      ) : problem ? (
        <NoticeLine notice={problem} t={t} />
      ) : (
        <Loading text={t('common.loading')} reserve />
      )}
      <AllRaffles stores={stores} t={t} locale={locale} shown={info.data?.Id ?? null} />
    </div>
  );
}

type Stores = ReturnType<typeof createRaffleBoard>;

function RaffleCard({ raffle, stores, t, locale }: { raffle: RaffleInfo; stores: Stores; t: Translate<Keys>; locale: LocaleCode }) {
  const now = useStore(stores.$now);
  const count = useStore(stores.$count);
  const date = (iso: string) => formatDateTime(iso, locale);
  const until = (iso: string) => timeLeft(Date.parse(iso) - now, locale);
  const drawAt = when(raffle);
  const countdown =
    raffle.State === 'upcoming'
      ? t('raffle.board.opensIn', { time: until(raffle.OpensAt) })
      : raffle.State === 'open'
        ? t('raffle.board.closesIn', { time: until(raffle.ClosesAt) })
        : raffle.State === 'closed' && raffle.DrawAt
          ? Date.parse(raffle.DrawAt) > now
            ? t('raffle.board.drawIn', { time: until(raffle.DrawAt) })
            : t('raffle.board.drawDue')
          : null;

  return (
    <article className="card raffle-card" aria-labelledby="raffle-title" data-raffle={raffle.Id}>
      {raffle.Cover && <img className="raffle-cover" src={raffle.Cover} alt="" width={1200} height={630} />}
      <p>
        <span className={`badge ${badge[raffle.State]}`} data-state={raffle.State}>
          {t(`raffle.board.state.${raffle.State}`)}
        </span>
      </p>
      <h2 id="raffle-title">{textIn(raffle.Title, locale)}</h2>
      <p>{textIn(raffle.Description, locale)}</p>
      {countdown && (
        <p className="raffle-countdown" data-countdown>
          {countdown}
        </p>
      )}
      <p className="muted">{t('raffle.board.schedule', { opens: date(raffle.OpensAt), closes: date(raffle.ClosesAt), draw: drawAt ? date(drawAt) : '-' })}</p>
      <p>
        <strong data-count aria-live="polite">
          {t('raffle.board.count', { count: (count ?? raffle.RegistrationCount).toLocaleString(locale) })}
        </strong>
      </p>
      {raffle.MinAccountAgeDays > 0 && <p className="muted">{t('raffle.board.eligibility', { days: raffle.MinAccountAgeDays })}</p>}

      <h3>{t('raffle.board.prizes')}</h3>
      <ul className="item-list">
        {raffle.Prizes.map((prize, index) => (
          <li key={index}>
            <span className="item-main">
              <strong>{prizeName(prize, locale)}</strong>
              {prize.Grant && <span className="muted">{prizeGrant(prize, locale, t)}</span>}
            </span>
            <span>{t('raffle.board.prizeCount', { count: prize.Quantity })}</span>
          </li>
        ))}
      </ul>

      <Participation raffle={raffle} stores={stores} t={t} locale={locale} />
      {raffle.State === 'drawn' && <Winners raffle={raffle} stores={stores} t={t} locale={locale} />}

      {raffle.Proof && (
        <dl className="raffle-proof">
          <dt>{t('raffle.board.commitment')}</dt>
          <dd>
            <code>{raffle.Proof.Commitment}</code>
          </dd>
          <dt>{t('raffle.board.publicSource')}</dt>
          <dd>
            {textIn(raffle.Proof.PublicSource, locale)}
            {raffle.Proof.PublicValue && (
              <>
                {': '}
                <code>{raffle.Proof.PublicValue}</code>
              </>
            )}
          </dd>
        </dl>
      )}
      <p>
        <a href={`${localizePath(locale, '/raffle/verify')}?id=${raffle.Id}`}>{t('raffle.board.verify')}</a>
      </p>
    </article>
  );
}

/** The user's part: a way in, registering, their number, and after the draw their result and claim. */
function Participation({ raffle, stores, t, locale }: { raffle: RaffleInfo; stores: Stores; t: Translate<Keys>; locale: LocaleCode }) {
  const loggedIn = useStore($isLoggedIn);
  const own = useStore(stores.$own);
  const result = useStore(stores.$result);
  const busy = useStore(stores.$busy);
  const notice = useStore(stores.$notice);
  const open = raffle.State === 'open';

  if (!loggedIn) {
    if (!open) return null;
    return (
      <p>
        <LoginLink locale={locale} text={t('raffle.board.loginToRegister')} />
      </p>
    );
  }
  if (own === undefined) return <Loading text={t('common.loading')} />;
  if (own === null) {
    return (
      <div className="raffle-participation">
        {open ? (
          <button type="button" className="button" disabled={busy} onClick={() => void stores.register()}>
            {t('raffle.board.register')}
          </button>
        ) : (
          raffle.State === 'drawn' && <p className="muted">{t('raffle.board.notRegistered')}</p>
        )}
        <NoticeLine notice={notice} t={t} />
      </div>
    );
  }

  const outcome = raffle.State === 'drawn' ? result.data : null;
  const prize = outcome?.Prize != null ? raffle.Prizes[outcome.Prize] : undefined;
  const claimOpen = outcome?.ClaimBy != null && Date.parse(outcome.ClaimBy) > Date.now();
  return (
    <div className="raffle-participation" data-participation>
      <p className="notice notice-ok" role="status">
        {t('raffle.board.registered', { number: own })}
      </p>
      {outcome &&
        (prize ? (
          <div data-outcome="won">
            <p>
              <strong>{t('raffle.board.won', { number: own, prize: prizeName(prize, locale) })}</strong>
            </p>
            {outcome.ClaimedAt ? (
              <p data-claimed>
                {t('raffle.board.claimed', { date: formatDateTime(outcome.ClaimedAt, locale) })}
                {!prize.Grant && ` ${t('raffle.board.delivered')}`}
              </p>
            ) : claimOpen ? (
              <>
                <p className="muted">{t('raffle.board.claimBy', { date: formatDateTime(outcome.ClaimBy!, locale) })}</p>
                <button type="button" className="button" disabled={busy} onClick={() => void stores.claim()}>
                  {t('raffle.board.claim')}
                </button>
              </>
            ) : (
              <p className="muted">{t('raffle.board.claimExpired', { date: formatDateTime(outcome.ClaimBy!, locale) })}</p>
            )}
          </div>
        ) : (
          <p data-outcome="lost">{t('raffle.board.lost', { number: own })}</p>
        ))}
      <NoticeLine notice={notice} t={t} />
    </div>
  );
}

function Winners({ raffle, stores, t, locale }: { raffle: RaffleInfo; stores: Stores; t: Translate<Keys>; locale: LocaleCode }) {
  const winners = useStore(stores.$winners);
  const page = useStore(stores.$page);
  if (!winners.data) return <Loading text={t('common.loading')} />;
  return (
    <section aria-labelledby="raffle-winners">
      <h3 id="raffle-winners">{t('raffle.board.winners')}</h3>
      {winners.data.Total === 0 ? (
        <p className="muted">{t('raffle.board.winnersEmpty')}</p>
      ) : (
        <ol className="item-list" data-winners start={(winners.data.Page - 1) * pageSize + 1}>
          {winners.data.Items.map((winner) => (
            <li key={winner.Number}>
              <span className="item-main">
                <strong>
                  {t('raffle.board.colNumber')} {winner.Number}
                </strong>
                <span className="muted">{winner.Name}</span>
              </span>
              <span>{prizeName(raffle.Prizes[winner.Prize], locale)}</span>
            </li>
          ))}
        </ol>
      )}
      <Pager page={page} total={winners.data.Total} go={(next) => stores.$page.set(next)} t={t} />
    </section>
  );
}

function AllRaffles({ stores, t, locale, shown }: { stores: Stores; t: Translate<Keys>; locale: LocaleCode; shown: number | null }) {
  const list = useStore(stores.$list);
  const others = list.data?.Items.filter((raffle) => raffle.Id !== shown) ?? [];
  if (!list.data) return null;
  return (
    <section className="card" aria-labelledby="all-raffles">
      <h2 id="all-raffles">{t('raffle.board.all')}</h2>
      {others.length === 0 ? (
        <p className="muted">{t('raffle.board.allEmpty')}</p>
      ) : (
        <ul className="item-list" data-raffle-list>
          {others.map((raffle) => (
            <li key={raffle.Id}>
              <span className="item-main">
                <strong>{textIn(raffle.Title, locale)}</strong>
                <span className="muted">
                  {t(`raffle.board.kind.${raffle.Kind}`)} · {formatDateTime(when(raffle) ?? raffle.ClosesAt, locale)}
                </span>
              </span>
              <span className="item-main">
                <span className={`badge ${badge[raffle.State]}`}>{t(`raffle.board.state.${raffle.State}`)}</span>
                <a href={raffle.Kind === 'instant' ? localizePath(locale, '/raffle/forthwith') : `${localizePath(locale, '/raffle')}?id=${raffle.Id}`}>
                  {t('raffle.board.view')}
                </a>
              </span>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
