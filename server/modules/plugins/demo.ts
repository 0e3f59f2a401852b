/**
 * The reviews a fresh demo database gets (docs/tour.md): a few per plugin, in the
 * languages their writers use, from demo reviewers who cannot log in (no
 * phone or e-mail), some marked helpful and one reported — so the plugin
 * pages, their ratings and `evaluation reported` show real data at once.
 */
import { count } from 'drizzle-orm';
import type { LocaleCode } from '#contract/locales.ts';
import type { Database } from '../../db/database.ts';
import { pluginEvaluations } from '../../db/schema/plugins.ts';
import { users } from '../../db/schema/identity.ts';
import { markHelpful, reportEvaluation, saveEvaluation } from './evaluations.ts';

const reviewers = ['星河', 'Mira', 'kumo', 'Lukas', '小北', 'Sofía', 'Дима', '민준', 'Giulia', 'hana'] as const;

type Review = [reviewer: number, plugin: string, rating: number, locale: LocaleCode, text: string];

const reviews: Review[] = [
  [0, 'authenticator', 5, 'zh-CN', '再也不用每次交易都掏手机了，令牌和确认都在电脑上搞定。备份加密这点很安心。'],
  [
    1,
    'authenticator',
    5,
    'en',
    'Moved my authenticator over from the phone in five minutes. Confirming market listings from the desktop is a huge time saver.',
  ],
  [3, 'authenticator', 4, 'en', 'Works well. I would like a way to sort accounts manually, but the codes are always right and the backup is easy.'],
  [7, 'authenticator', 5, 'ko', '거래 확인이 정말 편해졌어요. 백업 파일도 암호화되어서 안심이 됩니다.'],
  [2, 'account-switcher', 5, 'ja', 'サブ垢との切り替えがワンクリック。オフライン起動の設定もアカウントごとにできて便利です。'],
  [5, 'account-switcher', 4, 'es', 'Muy práctico para cambiar entre mi cuenta principal y la de pruebas. A veces Steam tarda en cerrarse, pero funciona.'],
  [4, 'account-switcher', 3, 'zh-CN', '好用，但头像偶尔刷新不出来，要手动点一下。'],
  [6, 'library-cleaner', 5, 'ru', 'Нашёл 40 ГБ забытых папок от удалённых игр. Всё показывает перед удалением, ничего лишнего не тронул.'],
  [8, 'library-cleaner', 4, 'it', 'Ottimo per liberare spazio. Mi piacerebbe poter escludere alcune cartelle in modo permanente.'],
  [1, 'library-cleaner', 5, 'en', 'Freed up a lot of space from old Workshop items I had forgotten about. Clear list, nothing removed without asking.'],
  [9, 'achievement-manager', 4, 'ja', '統計が見やすい。フェアプレーの注意書きがちゃんとあるのも好印象。'],
  [3, 'achievement-manager', 2, 'en', 'Does what it says, but only on Windows, and the game list takes a while to load on a big library.'],
  [0, 'hosts-manager', 5, 'zh-CN', '配置方案一键切换，改坏了还能恢复备份，比手动改 hosts 省心多了。'],
  [6, 'hosts-manager', 4, 'ru', 'Удобно держать несколько профилей. Хотелось бы импорт из файла.'],
  [5, 'screenshot-sync', 4, 'es', 'Copia mis capturas a la carpeta de la nube sin que tenga que hacer nada. Falta la versión para Mac.'],
  [2, 'screenshot-sync', 3, 'ja', '便利ですが、まだベータ版らしく、たまにコピーが遅れます。'],
];

/** Who found which review helpful: [reviewer, review index]. */
const helpfulMarks: Array<[number, number]> = [
  [4, 1],
  [5, 1],
  [6, 1],
  [2, 0],
  [9, 7],
  [0, 9],
  [7, 11],
];

export async function seedDemoEvaluations(db: Database): Promise<boolean> {
  const [{ existing }] = await db.select({ existing: count() }).from(pluginEvaluations);
  if (existing > 0) return false;
  const people = await db
    .insert(users)
    .values(reviewers.map((nickname) => ({ nickname })))
    .returning({ id: users.id });
  const ids: number[] = [];
  for (const [reviewer, plugin, rating, locale, text] of reviews) {
    const { Own } = await saveEvaluation(db, plugin, people[reviewer].id, rating, text, locale);
    ids.push(Own.Evaluation!.Id);
  }
  for (const [reviewer, review] of helpfulMarks) await markHelpful(db, ids[review], people[reviewer].id);
  await reportEvaluation(db, ids[6], people[8].id, 'offTopic');
  return true;
}
