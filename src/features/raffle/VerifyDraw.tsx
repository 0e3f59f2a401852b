/**
 * Checking a draw in the browser (`/raffle/verify`): `?id=` redoes a
 * registration raffle's draw from its published seed, public value and
 * entrant count, and compares it with the published winners place by place;
 * `?instant=` checks the user's own instant draws against their revealed
 * seeds. Every value can be edited, so a reader can watch the check fail.
 * The island renders the page's stores (verify-store.ts) and the checks
 * (verification.ts), which compute as the server does.
 */
import { useStore } from '@nanostores/react';
import { useState } from 'react';
import type { RaffleInfo, Winner } from '#contract/raffle.ts';
import { Loading, LoginLink } from '@/components/island.tsx';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type Translate } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import type { FailureMessageKey } from '@/lib/api/errors.ts';
import { $isLoggedIn } from '@/stores/session.ts';
import { FailureLine } from '@/components/FailureLine.tsx';
import { browserEnvironment } from './environment.ts';
import { idInQuery, textIn } from './raffle-text.ts';
import { createDrawCheck, createDrawnList, createInstantCheck } from './verify-store.ts';
import type { ProofInputs } from './verification.ts';
import './raffle.css';

type Keys = KeysUnder<'raffle.verify' | 'raffle.board.colNumber' | 'raffle.board.colPrize' | 'raffle.instant' | FailureMessageKey | 'common'>;

interface Props {
  strings: Strings<Keys>;
  locale: LocaleCode;
}

export default function VerifyDraw({ strings, locale }: Props) {
  const t = translator(strings);
  const [asked] = useState(() => ({ id: idInQuery('id'), instant: idInQuery('instant') }));
  if (asked.id) return <RaffleCheck id={asked.id} t={t} locale={locale} />;
  if (asked.instant) return <InstantCheck id={asked.instant} t={t} locale={locale} />;
  return <Choose t={t} locale={locale} />;
}

function RaffleCheck({ id, t, locale }: { id: number; t: Translate<Keys>; locale: LocaleCode }) {
  const [stores] = useState(() => createDrawCheck(browserEnvironment, id));
  const loaded = useStore(stores.$raffle);
  if (loaded.error) return <FailureLine error={loaded.error} t={t} />;
  if (!loaded.data) return <Loading text={t('common.loading')} />;
  const { raffle, winners } = loaded.data;
  if (!raffle.Proof || raffle.State !== 'drawn') {
    return (
      <section className="card">
        <h2>{textIn(raffle.Title, locale)}</h2>
        <p>{t('raffle.verify.notDrawn')}</p>
        {raffle.Proof && (
          <p>
            {t('raffle.verify.commitment')}: <code>{raffle.Proof.Commitment}</code>
          </p>
        )}
      </section>
    );
  }
  return <Recompute raffle={raffle} winners={winners} stores={stores} t={t} locale={locale} />;
}

function Recompute({
  raffle,
  winners,
  stores,
  t,
  locale,
}: {
  raffle: RaffleInfo;
  winners: Winner[];
  stores: ReturnType<typeof createDrawCheck>;
  t: Translate<Keys>;
  locale: LocaleCode;
}) {
  const inputs = useStore(stores.$inputs);
  const check = useStore(stores.$check);

  const field = (name: keyof ProofInputs, label: string) => (
    <label>
      {label}
      <input
        name={name}
        value={inputs[name]}
        spellCheck={false}
        autoComplete="off"
        inputMode={name === 'entrants' ? 'numeric' : undefined}
        onChange={(event) => stores.setInput(name, event.currentTarget.value)}
      />
    </label>
  );
  const verified = check?.verified === true;
  return (
    <section className="card raffle-card" aria-labelledby="verify-raffle">
      <h2 id="verify-raffle">{textIn(raffle.Title, locale)}</h2>
      <p className="muted">{formatDateTime(raffle.DrawnAt!, locale)}</p>
      {check && (
        <p
          className={`raffle-verdict ${verified ? 'notice notice-ok' : 'notice notice-warn'}`}
          role="status"
          data-verdict={verified ? 'verified' : 'not-verified'}
        >
          <strong>{t(verified ? 'raffle.verify.verified' : 'raffle.verify.notVerified')}</strong>
        </p>
      )}
      {check && (
        <ul className="raffle-checks">
          <li>{t(check.commitmentOk ? 'raffle.verify.commitmentOk' : 'raffle.verify.commitmentBad')}</li>
          <li>
            {check.difference === null
              ? t('raffle.verify.winnersOk', { count: winners.length })
              : 'count' in check.difference
                ? t('raffle.verify.countDiffer', { published: winners.length, computed: check.computed })
                : t('raffle.verify.winnersDiffer', {
                    place: check.difference.place,
                    published: check.difference.published,
                    computed: check.difference.computed,
                  })}
          </li>
        </ul>
      )}
      <h3>{t('raffle.verify.inputs')}</h3>
      <p className="muted">{t('raffle.verify.editHint')}</p>
      <div className="form raffle-inputs">
        {field('commitment', t('raffle.verify.commitment'))}
        {field('seed', t('raffle.verify.seed'))}
        {field('publicValue', t('raffle.verify.publicValue'))}
        {field('entrants', t('raffle.verify.entrants'))}
      </div>
      <h3>{t('raffle.verify.published')}</h3>
      <ol className="item-list" data-published>
        {winners.map((winner) => (
          <li key={winner.Number}>
            <span>
              {t('raffle.board.colNumber')} {winner.Number}
            </span>
            <span className="muted">{textIn(raffle.Prizes[winner.Prize]?.Name ?? raffle.Title, locale)}</span>
          </li>
        ))}
      </ol>
    </section>
  );
}

/** The user's instant draws, each checked against its revealed seed: the hash, the roll, and the outcome. */
function InstantCheck({ id, t, locale }: { id: number; t: Translate<Keys>; locale: LocaleCode }) {
  const loggedIn = useStore($isLoggedIn);
  if (!loggedIn)
    return (
      <p>
        <LoginLink locale={locale} text={t('raffle.instant.loginToDraw')} />
      </p>
    );
  return <InstantDraws id={id} t={t} locale={locale} />;
}

function InstantDraws({ id, t, locale }: { id: number; t: Translate<Keys>; locale: LocaleCode }) {
  const [stores] = useState(() => createInstantCheck(browserEnvironment, id));
  const loaded = useStore(stores.$draws);
  if (loaded.error) return <FailureLine error={loaded.error} t={t} />;
  if (!loaded.data) return <Loading text={t('common.loading')} />;
  const { raffle, history, checks, hidden, verified } = loaded.data;
  return (
    <section className="card raffle-card" aria-labelledby="verify-instant">
      <h2 id="verify-instant">{t('raffle.verify.instantTitle', { title: textIn(raffle.Title, locale) })}</h2>
      {checks.length > 0 && (
        <p className={verified ? 'notice notice-ok' : 'notice notice-warn'} role="status" data-verdict={verified ? 'verified' : 'not-verified'}>
          <strong>{t(verified ? 'raffle.verify.verified' : 'raffle.verify.notVerified')}</strong>
        </p>
      )}
      {hidden > 0 && <p className="muted">{t('raffle.verify.instantHidden', { count: hidden })}</p>}
      {history.Draws.length === 0 && <p className="muted">{t('raffle.instant.historyEmpty')}</p>}
      <ul className="item-list">
        {checks.map((check) => (
          <li key={check.nonce}>
            <span>
              {t('raffle.instant.colNonce')} {check.nonce}
            </span>
            <span className={check.problem ? '' : 'muted'}>
              {check.problem
                ? t(check.problem.key, 'params' in check.problem ? check.problem.params : undefined)
                : t('raffle.verify.instantOk', { roll: check.roll.toLocaleString(locale) })}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** Without an id: the drawn raffles to choose from. */
function Choose({ t, locale }: { t: Translate<Keys>; locale: LocaleCode }) {
  const [stores] = useState(() => createDrawnList(browserEnvironment));
  const loaded = useStore(stores.$drawn);
  if (loaded.error) return <FailureLine error={loaded.error} t={t} />;
  if (!loaded.data) return <Loading text={t('common.loading')} />;
  const drawn = loaded.data;
  return (
    <section className="card">
      <p>{drawn.length ? t('raffle.verify.choose') : t('raffle.verify.noneDrawn')}</p>
      <ul className="item-list">
        {drawn.map((raffle) => (
          <li key={raffle.Id}>
            <a href={`?id=${raffle.Id}`}>{textIn(raffle.Title, locale)}</a>
            <span className="muted">{formatDateTime(raffle.DrawnAt!, locale)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}
