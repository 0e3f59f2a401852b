/**
 * The raffles a fresh demo database gets (docs/tour.md): one open for registration,
 * one drawn with its proof published (its entrants are demo players who
 * cannot log in), and an instant raffle with stock — so every raffle page
 * shows real data at once.
 */
import { count, eq } from 'drizzle-orm';
import type { LocalizedText } from '#contract/raffle.ts';
import { serverActor } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { raffleEntries, raffles } from '../../db/schema/raffle.ts';
import { users } from '../../db/schema/identity.ts';
import { createRaffle } from './definition.ts';
import type { RaffleDefinition } from '#contract/raffle.ts';
import { drawRaffle } from './draws.ts';

const day = 86_400_000;
const demo = serverActor('demo data');
const at = (days: number) => new Date(Date.now() + days * day).toISOString();

const wallet = (fen: number) => ({ Kind: 'wallet' as const, Amount: fen });

const publicSource: LocalizedText = {
  'zh-CN': '登记截止后首期福利彩票“双色球”开奖号码（按开奖公告的顺序书写，如 03 07 12 19 25 31 + 09）',
  'zh-TW': '報名截止後首期福利彩票「雙色球」開獎號碼（依開獎公告的順序書寫，如 03 07 12 19 25 31 + 09）',
  en: 'The winning numbers of the first China Welfare Lottery "Shuang Se Qiu" draw after registration closes, written as announced (e.g. 03 07 12 19 25 31 + 09)',
  es: 'Los números ganadores del primer sorteo «Shuang Se Qiu» de la Lotería de Bienestar de China tras el cierre de la inscripción, escritos como se anuncian (p. ej., 03 07 12 19 25 31 + 09)',
  it: 'I numeri vincenti della prima estrazione «Shuang Se Qiu» della Lotteria del Welfare cinese dopo la chiusura delle iscrizioni, scritti come annunciati (ad es. 03 07 12 19 25 31 + 09)',
  ja: 'エントリー締切後最初の中国福祉宝くじ「双色球」の当選番号（発表どおりの順序で表記。例：03 07 12 19 25 31 + 09）',
  ko: '응모 마감 후 첫 중국 복지복권 "솽써추" 추첨의 당첨 번호(발표된 순서대로 표기, 예: 03 07 12 19 25 31 + 09)',
  ru: 'Выигрышные номера первого тиража китайской благотворительной лотереи «Шуанседю» после окончания регистрации, записанные так, как их объявили (например, 03 07 12 19 25 31 + 09)',
};

const prizes = {
  membership: {
    'zh-CN': '90 天云挂卡',
    'zh-TW': '90 天雲掛卡',
    en: '90 days of cloud card idling',
    es: '90 días de farmeo de cromos en la nube',
    it: '90 giorni di farming delle carte nel cloud',
    ja: 'クラウドカード放置 90 日分',
    ko: '클라우드 카드 방치 90일',
    ru: '90 дней облачного фарма карточек',
  },
  fifty: {
    'zh-CN': '钱包余额 ¥50',
    'zh-TW': '錢包餘額 ¥50',
    en: 'CN¥50 wallet credit',
    es: '50 CNY de saldo en el monedero',
    it: '50 CNY di credito nel portafoglio',
    ja: 'ウォレット残高 50 人民元',
    ko: '지갑 잔액 50위안',
    ru: '50 юаней на баланс кошелька',
  },
  five: {
    'zh-CN': '钱包余额 ¥5',
    'zh-TW': '錢包餘額 ¥5',
    en: 'CN¥5 wallet credit',
    es: '5 CNY de saldo en el monedero',
    it: '5 CNY di credito nel portafoglio',
    ja: 'ウォレット残高 5 人民元',
    ko: '지갑 잔액 5위안',
    ru: '5 юаней на баланс кошелька',
  },
} satisfies Record<string, LocalizedText>;

const registrationPrizes = [
  { Name: prizes.membership, Quantity: 1, Grant: { Kind: 'membership' as const, Days: 90 } },
  { Name: prizes.fifty, Quantity: 3, Grant: wallet(5000) },
  { Name: prizes.five, Quantity: 10, Grant: wallet(500) },
];

const open: RaffleDefinition = {
  Kind: 'registration',
  Title: {
    'zh-CN': '冬季抽奖',
    'zh-TW': '冬季抽獎',
    en: 'Winter raffle',
    es: 'Sorteo de invierno',
    it: "Estrazione d'inverno",
    ja: '冬の抽選',
    ko: '겨울 추첨',
    ru: 'Зимний розыгрыш',
  },
  Description: {
    'zh-CN': '报名即可参加，每个账号一次。开奖后请在领奖期限内领取奖品。',
    'zh-TW': '報名即可參加，每個帳號一次。開獎後請在領獎期限內領取獎品。',
    en: 'Register to take part, once per account. After the draw, claim your prize before the claim period ends.',
    es: 'Inscríbete para participar, una vez por cuenta. Tras el sorteo, reclama tu premio antes de que termine el plazo.',
    it: "Iscriviti per partecipare, una volta per account. Dopo l'estrazione, richiedi il premio entro il termine.",
    ja: 'エントリーするだけで参加できます（1 アカウントにつき 1 回）。抽選後、受け取り期限までに賞品を受け取ってください。',
    ko: '응모하면 참여할 수 있어요(계정당 1회). 추첨 후 수령 기한 안에 경품을 받아 주세요.',
    ru: 'Зарегистрируйтесь, чтобы участвовать, — один раз на аккаунт. После розыгрыша заберите приз до конца срока получения.',
  },
  Prizes: registrationPrizes,
  OpensAt: at(-1),
  ClosesAt: at(6),
  DrawAt: at(7),
  PublicSource: publicSource,
};

const drawn: RaffleDefinition = {
  ...open,
  Title: {
    'zh-CN': '秋季抽奖',
    'zh-TW': '秋季抽獎',
    en: 'Autumn raffle',
    es: 'Sorteo de otoño',
    it: "Estrazione d'autunno",
    ja: '秋の抽選',
    ko: '가을 추첨',
    ru: 'Осенний розыгрыш',
  },
  OpensAt: at(-30),
  ClosesAt: at(-16),
  DrawAt: at(-15),
};

const instant: RaffleDefinition = {
  Kind: 'instant',
  Title: {
    'zh-CN': '每日即时抽奖',
    'zh-TW': '每日即時抽獎',
    en: 'Daily instant raffle',
    es: 'Sorteo instantáneo diario',
    it: 'Estrazione istantanea quotidiana',
    ja: '毎日の即時抽選',
    ko: '매일 즉석 추첨',
    ru: 'Ежедневный мгновенный розыгрыш',
  },
  Description: {
    'zh-CN': '每个账号可抽 3 次，中奖的钱包余额立即到账，奖品抽完即止。',
    'zh-TW': '每個帳號可抽 3 次，中獎的錢包餘額立即入帳，獎品抽完即止。',
    en: 'Three draws per account. A win is credited to your wallet at once, while prizes last.',
    es: 'Tres tiradas por cuenta. Si ganas, el saldo llega a tu monedero al momento, hasta agotar premios.',
    it: 'Tre estrazioni per account. Una vincita arriva subito nel portafoglio, fino a esaurimento premi.',
    ja: '1 アカウントにつき 3 回引けます。当選するとウォレットにすぐ反映されます（賞品がなくなり次第終了）。',
    ko: '계정당 3번 뽑을 수 있어요. 당첨되면 지갑에 바로 들어가며, 경품이 소진되면 종료돼요.',
    ru: 'Три попытки на аккаунт. Выигрыш сразу зачисляется в кошелёк, пока призы не закончатся.',
  },
  Prizes: [{ Name: prizes.five, Quantity: 50, Grant: wallet(500) }],
  OpensAt: at(-1),
  ClosesAt: at(30),
  Odds: 200_000,
  PerUserLimit: 3,
};

/** Demo players: entrants of the drawn raffle, without phone or e-mail, so nobody can log in as them. */
const players = ['SteamFox', '夜行者', 'Kirara', 'MapleLeaf', '북극곰', 'Волк', 'Lucía', 'Giulia', 'ねこまる', '星河', 'PixelPilot', 'Orion'];
const demoEntrants = 36;
const demoPublicValue = '04 11 15 22 27 30 + 12';

/** Seeds the demo raffles into an empty table; answers whether it did. */
export async function seedDemoRaffles(db: Database): Promise<boolean> {
  const [{ existing }] = await db.select({ existing: count() }).from(raffles);
  if (existing > 0) return false;
  await createRaffle(db, demo, open, null);
  await createRaffle(db, demo, instant, null);

  const past = await createRaffle(db, demo, drawn, null);
  const entrants = await db
    .insert(users)
    .values(Array.from({ length: demoEntrants }, (_, i) => ({ nickname: `${players[i % players.length]}${i >= players.length ? i : ''}` })))
    .returning({ id: users.id });
  await db.insert(raffleEntries).values(entrants.map((user, i) => ({ raffleId: past.id, number: i + 1, userId: user.id })));
  await db.update(raffles).set({ entrants: demoEntrants }).where(eq(raffles.id, past.id));
  await drawRaffle(db, demo, past.id, demoPublicValue);
  return true;
}
