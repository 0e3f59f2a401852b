/**
 * The instant raffle (`/raffle/forthwith`): the running raffle, or
 * the one `?id=` names, with its prize, odds, stock and limit; drawing, with
 * the outcome at once; and what makes each draw checkable — the server seed's
 * hash, the user's client seed, the nonce, revealing the seed — with the
 * user's past draws. It renders the page's stores and calls their actions;
 * the logic is in instant-raffle-store.ts.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import { raffleRules, type InstantDraw, type RaffleInfo } from '#contract/raffle.ts';
import { Loading, LoginLink, NoticeLine } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import { localizePath, type LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type Translate } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { ApiFailure, type FailureMessageKey } from '@/lib/api/errors.ts';
import { $isLoggedIn } from '@/stores/session.ts';
import { FailureLine } from '@/components/FailureLine.tsx';
import { instantEnvironment } from './instant-environment.ts';
import { createInstantRaffle } from './instant-raffle-store.ts';
import { idInQuery, oddsText, prizeGrant, prizeName, textIn } from './raffle-text.ts';
import './raffle.css';

type Keys = KeysUnder<'raffle.instant' | 'raffle.board.prizes' | 'account.redemption.grant' | FailureMessageKey | 'common'>;

interface Props {
  strings: Strings<Keys>;
  locale: LocaleCode;
}

export default function InstantRaffle({ strings, locale }: Props) {
  const t = translator(strings);
  const [stores] = useState(() => createInstantRaffle(instantEnvironment, idInQuery('id') ?? 'forthwith'));
  const info = useStore(stores.$info);

  if (info.data) return <Instant raffle={info.data} stores={stores} t={t} locale={locale} />;
  if (info.error instanceof ApiFailure && info.error.code === 404) return <p className="card">{t('raffle.instant.none')}</p>;
  if (info.error) return <FailureLine error={info.error} t={t} />;
  return <Loading text={t('common.loading')} />;
}

type Stores = ReturnType<typeof createInstantRaffle>;

function Instant({ raffle, stores, t, locale }: { raffle: RaffleInfo; stores: Stores; t: Translate<Keys>; locale: LocaleCode }) {
  const loggedIn = useStore($isLoggedIn);
  const terms = raffle.Instant!;
  const prize = raffle.Prizes[0];
  const grant = prize && prizeGrant(prize, locale, t);
  const when =
    raffle.State === 'open'
      ? t('raffle.instant.open', { date: formatDateTime(raffle.ClosesAt, locale) })
      : raffle.State === 'upcoming'
        ? t('raffle.instant.upcoming', { date: formatDateTime(raffle.OpensAt, locale) })
        : t('raffle.instant.closed');

  return (
    <div className="raffle-board">
      <article className="card raffle-card" aria-labelledby="instant-title" data-raffle={raffle.Id}>
        {raffle.Cover && <img className="raffle-cover" src={raffle.Cover} alt="" width={1200} height={630} />}
        <h2 id="instant-title">{textIn(raffle.Title, locale)}</h2>
        <p>{textIn(raffle.Description, locale)}</p>
        <p className="muted">{when}</p>
        <h3>{t('raffle.board.prizes')}</h3>
        <p>
          <strong>{prizeName(prize, locale)}</strong>
          {grant && <span className="muted"> · {grant}</span>}
        </p>
        <ul className="raffle-facts">
          <li>{t('raffle.instant.odds', { odds: oddsText(terms.Odds, locale) })}</li>
          <li data-stock>{t('raffle.instant.stock', { count: terms.Stock, total: prize?.Quantity ?? terms.Stock })}</li>
          <li>{t('raffle.instant.limit', { count: terms.PerUserLimit })}</li>
        </ul>
        {loggedIn ? (
          <Drawing raffle={raffle} stores={stores} t={t} locale={locale} />
        ) : (
          raffle.State === 'open' && (
            <p>
              <LoginLink locale={locale} text={t('raffle.instant.loginToDraw')} />
            </p>
          )
        )}
      </article>
    </div>
  );
}

function Drawing({ raffle, stores, t, locale }: { raffle: RaffleInfo; stores: Stores; t: Translate<Keys>; locale: LocaleCode }) {
  const history = useStore(stores.$history);
  const clientSeed = useStore(stores.$clientSeed);
  const seedOk = useStore(stores.$seedOk);
  const outcome = useStore(stores.$outcome);
  const left = useStore(stores.$left);
  const busy = useStore(stores.$busy);
  const notice = useStore(stores.$notice);

  if (!history.data) return history.error ? <FailureLine error={history.error} t={t} /> : <Loading text={t('common.loading')} />;
  const made = history.data.Draws.length;

  return (
    <div className="raffle-participation">
      {raffle.State === 'open' && (
        <div className="form-actions">
          <button type="button" className="button" disabled={busy || left === 0} onClick={() => void stores.draw()}>
            {t('raffle.instant.draw')}
          </button>
          <span className="muted" data-left>
            {t('raffle.instant.left', { count: left })}
          </span>
        </div>
      )}
      {outcome && <DrawOutcome draw={outcome.Draw} prize={prizeName(raffle.Prizes[0], locale)} t={t} locale={locale} />}
      <NoticeLine notice={notice} t={t} />

      <section aria-labelledby="fairness">
        <h3 id="fairness">{t('raffle.instant.fairHeading')}</h3>
        <p className="muted">{t('raffle.instant.fairText')}</p>
        <dl className="raffle-proof">
          <dt>{t('raffle.instant.seedHash')}</dt>
          <dd>
            <code data-seed-hash>{history.data.SeedHash}</code>
          </dd>
          <dt>{t('raffle.instant.nextNonce')}</dt>
          <dd>{history.data.NextNonce}</dd>
        </dl>
        <label className="form">
          {t('raffle.instant.clientSeed')}
          <input
            name="clientSeed"
            value={clientSeed}
            maxLength={raffleRules.clientSeedMaxLength}
            autoComplete="off"
            spellCheck={false}
            onChange={(event) => stores.$clientSeed.set(event.currentTarget.value)}
            aria-invalid={!seedOk}
          />
          <span className="hint">{t('raffle.instant.clientSeedHint', { max: raffleRules.clientSeedMaxLength })}</span>
        </label>
        <div className="form-actions">
          <button type="button" className="button button-secondary" disabled={busy} onClick={() => void stores.rotateSeed()}>
            {t('raffle.instant.rotate')}
          </button>
          <a href={`${localizePath(locale, '/raffle/verify')}?instant=${raffle.Id}`}>{t('raffle.instant.verify')}</a>
        </div>
      </section>

      <section aria-labelledby="instant-history">
        <h3 id="instant-history">{t('raffle.instant.history')}</h3>
        {made === 0 ? (
          <p className="muted">{t('raffle.instant.historyEmpty')}</p>
        ) : (
          <ul className="item-list" data-history>
            {history.data.Draws.map((draw) => (
              <li key={`${draw.SeedHash}:${draw.Nonce}`}>
                <span className="item-main">
                  <strong>{t(draw.Won ? 'raffle.instant.resultWon' : draw.SoldOut ? 'raffle.instant.resultSoldOut' : 'raffle.instant.resultLost')}</strong>
                  <span className="muted">
                    <time dateTime={draw.At}>{formatDateTime(draw.At, locale)}</time>
                  </span>
                </span>
                <span className="item-main muted">
                  <span>
                    {t('raffle.instant.colRoll')} {draw.Roll.toLocaleString(locale)}
                  </span>
                  <span>
                    {t('raffle.instant.colNonce')} {draw.Nonce} · {draw.ClientSeed}
                  </span>
                </span>
              </li>
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

function DrawOutcome({ draw, prize, t, locale }: { draw: InstantDraw; prize: string; t: Translate<Keys>; locale: LocaleCode }) {
  const text = draw.Won
    ? t('raffle.instant.won', { prize })
    : draw.SoldOut
      ? t('raffle.instant.soldOut')
      : t('raffle.instant.lost', { roll: draw.Roll.toLocaleString(locale) });
  return (
    <p className={`notice ${draw.Won ? 'notice-ok' : 'notice-warn'}`} role="status" data-outcome={draw.Won ? 'won' : 'lost'}>
      {text}
    </p>
  );
}
