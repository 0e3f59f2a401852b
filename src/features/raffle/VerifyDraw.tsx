/**
 * Checking a draw in the browser (`/raffle/verify`): `?id=` redoes a
 * registration raffle's draw from its published seed, public value and
 * entrant count, and compares it with the published winners place by place;
 * `?instant=` checks the user's own instant draws against their revealed
 * seeds. Every value can be edited, so a reader can watch the check fail.
 * The computation is the server's own (contract/raffle-draw.ts).
 */
import { useStore } from '@nanostores/react';
import { useEffect, useState } from 'react';
import { raffleCalls, raffleRules, type InstantHistory, type RaffleInfo, type Winner } from '#contract/raffle.ts';
import { commitmentOf, drawWinners, instantRoll, type DrawnWinner } from '#contract/raffle-draw.ts';
import { Loading, LoginLink } from '@/components/island.tsx';
import { authCall } from '@/stores/session.ts';
import { formatDateTime } from '@/i18n/dates.ts';
import type { LocaleCode } from '@/i18n/locales.ts';
import { translator, type Strings, type Translate } from '@/i18n/strings.ts';
import type { KeysUnder } from '@/i18n/t.ts';
import { call } from '@/lib/api/client.ts';
import { $isLoggedIn } from '@/stores/session.ts';
import { FailureLine } from '@/components/FailureLine.tsx';
import { idInQuery, textIn } from './raffle-text.ts';
import './raffle.css';

type Keys = KeysUnder<'raffle.verify' | 'raffle.board.colNumber' | 'raffle.board.colPrize' | 'raffle.instant' | 'api' | 'common'>;

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

/** Every published winner, read in the largest pages the API gives. */
async function allWinners(id: number): Promise<Winner[]> {
  const winners: Winner[] = [];
  for (let page = 1; ; page++) {
    const answer = await call(raffleCalls.winners, { params: { id, a: page, b: raffleRules.maxPageSize }, fresh: true });
    winners.push(...answer.Items);
    if (answer.Items.length === 0 || winners.length >= answer.Total) return winners;
  }
}

function useLoaded<T>(load: () => Promise<T>) {
  const [state, setState] = useState<{ data?: T; error?: unknown }>({});
  useEffect(() => {
    load().then(
      (data) => setState({ data }),
      (error: unknown) => setState({ error }),
    );
  }, []);
  return state;
}

/** The first place where the recomputed winners and the published ones part, or null when they agree. */
function difference(published: Winner[], computed: DrawnWinner[]) {
  for (let place = 0; place < Math.max(published.length, computed.length); place++) {
    const a = published[place];
    const b = computed[place];
    if (!a || !b) return { count: true as const };
    if (a.Number !== b.number || a.Prize !== b.prize) return { place: place + 1, published: a.Number, computed: b.number };
  }
  return null;
}

function RaffleCheck({ id, t, locale }: { id: number; t: Translate<Keys>; locale: LocaleCode }) {
  const loaded = useLoaded(async () => {
    const raffle = await call(raffleCalls.info, { params: { id }, fresh: true });
    return { raffle, winners: raffle.State === 'drawn' ? await allWinners(id) : [] };
  });
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
  return <Recompute raffle={raffle} winners={winners} t={t} locale={locale} />;
}

function Recompute({ raffle, winners, t, locale }: { raffle: RaffleInfo; winners: Winner[]; t: Translate<Keys>; locale: LocaleCode }) {
  const proof = raffle.Proof!;
  const [inputs, setInputs] = useState({
    seed: proof.Seed ?? '',
    publicValue: proof.PublicValue ?? '',
    entrants: String(proof.Entrants),
    commitment: proof.Commitment,
  });
  const [check, setCheck] = useState<{ commitmentOk: boolean; diff: ReturnType<typeof difference>; computed: number } | null>(null);

  useEffect(() => {
    let current = true;
    const entrants = Number(inputs.entrants);
    void (async () => {
      const commitmentOk = (await commitmentOf(inputs.seed)) === inputs.commitment.trim().toLowerCase();
      const computed =
        Number.isSafeInteger(entrants) && entrants >= 0
          ? await drawWinners({ seed: inputs.seed, publicValue: inputs.publicValue, entrants, quantities: raffle.Prizes.map((prize) => prize.Quantity) })
          : [];
      if (current) setCheck({ commitmentOk, diff: difference(winners, computed), computed: computed.length });
    })();
    return () => {
      current = false;
    };
  }, [inputs]);

  const field = (name: keyof typeof inputs, label: string) => (
    <label>
      {label}
      <input
        name={name}
        value={inputs[name]}
        spellCheck={false}
        autoComplete="off"
        inputMode={name === 'entrants' ? 'numeric' : undefined}
        onChange={(event) => {
          const value = event.currentTarget.value;
          setInputs((before) => ({ ...before, [name]: value }));
        }}
      />
    </label>
  );
  const verified = check !== null && check.commitmentOk && check.diff === null;

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
            {check.diff === null
              ? t('raffle.verify.winnersOk', { count: winners.length })
              : 'count' in check.diff
                ? t('raffle.verify.countDiffer', { published: winners.length, computed: check.computed })
                : t('raffle.verify.winnersDiffer', { place: check.diff.place, published: check.diff.published, computed: check.diff.computed })}
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

type DrawCheck = { nonce: number; roll: number; problem: string | null };

function InstantDraws({ id, t, locale }: { id: number; t: Translate<Keys>; locale: LocaleCode }) {
  const loaded = useLoaded(async () => {
    const [raffle, history] = await Promise.all([
      call(raffleCalls.info, { params: { id }, fresh: true }),
      authCall(raffleCalls.forthwithRaffleResults, { params: { id } }),
    ]);
    return { raffle, history, checks: await checkDraws(raffle, history, t) };
  });
  if (loaded.error) return <FailureLine error={loaded.error} t={t} />;
  if (!loaded.data) return <Loading text={t('common.loading')} />;
  const { raffle, history, checks } = loaded.data;
  const hidden = history.Draws.filter((draw) => draw.Seed === null).length;
  const verified = checks.length > 0 && checks.every((check) => check.problem === null);
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
            <span className={check.problem ? '' : 'muted'}>{check.problem ?? t('raffle.verify.instantOk', { roll: check.roll.toLocaleString(locale) })}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

async function checkDraws(raffle: RaffleInfo, history: InstantHistory, t: Translate<Keys>): Promise<DrawCheck[]> {
  const odds = raffle.Instant?.Odds ?? 0;
  const checks: DrawCheck[] = [];
  for (const draw of history.Draws) {
    if (draw.Seed === null) continue;
    const roll = await instantRoll(draw.Seed, draw.ClientSeed, draw.Nonce);
    const won = roll < odds;
    const problem =
      (await commitmentOf(draw.Seed)) !== draw.SeedHash
        ? t('raffle.verify.instantHashBad')
        : roll !== draw.Roll
          ? t('raffle.verify.instantRollBad', { published: draw.Roll, computed: roll })
          : won !== (draw.Won || draw.SoldOut)
            ? t('raffle.verify.instantOutcomeBad')
            : null;
    checks.push({ nonce: draw.Nonce, roll, problem });
  }
  return checks;
}

/** Without an id: the drawn raffles to choose from. */
function Choose({ t, locale }: { t: Translate<Keys>; locale: LocaleCode }) {
  const loaded = useLoaded(() => call(raffleCalls.list, { params: { a: 1, b: raffleRules.maxPageSize }, fresh: true }));
  if (loaded.error) return <FailureLine error={loaded.error} t={t} />;
  if (!loaded.data) return <Loading text={t('common.loading')} />;
  const drawn = loaded.data.Items.filter((raffle) => raffle.State === 'drawn');
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
