/**
 * The status a fresh demo database gets (docs/tour.md): most of the board up, a
 * few targets degraded or down with notes, and some resolved incidents — so
 * the accelerate page and the feeds show real data at once.
 */
import { count } from 'drizzle-orm';
import type { ServiceState, StatusNote, StatusTargetKey } from '#contract/status.ts';
import { serverActor } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { statusIncidents } from '../../db/schema/status.ts';
import { setStatus } from './board.ts';

const githubNote: StatusNote = {
  Fallback: 'en',
  Texts: {
    'zh-CN': 'GitHub 发布文件下载较慢，我们正在切换到更快的节点。',
    'zh-TW': 'GitHub 發布檔案下載較慢，我們正在切換到更快的節點。',
    en: 'Release downloads from GitHub are slow; we are moving them to faster nodes.',
    es: 'Las descargas de versiones de GitHub van lentas; las estamos pasando a nodos más rápidos.',
    it: 'I download delle release da GitHub sono lenti; li stiamo spostando su nodi più veloci.',
    ja: 'GitHub のリリースファイルのダウンロードが遅くなっています。より高速なノードへ切り替えています。',
    ko: 'GitHub 릴리스 파일 다운로드가 느립니다. 더 빠른 노드로 옮기고 있습니다.',
    ru: 'Загрузка релизов с GitHub идёт медленно; переводим её на более быстрые узлы.',
  },
};

const southNote: StatusNote = {
  Fallback: 'en',
  Texts: {
    'zh-CN': '晚高峰时段延迟偏高，正在扩容。',
    en: 'Higher latency in the evening peak; we are adding capacity.',
  },
};

const paypalNote: StatusNote = { Fallback: 'en', Texts: { en: 'PayPal checkout pages fail to load through acceleration; under investigation.' } };

/** Oldest first: two incidents already resolved, then what is going on now. */
const changes: Array<[StatusTargetKey, ServiceState, StatusNote | null]> = [
  ['steam-community', 'down', null],
  ['steam-community', 'up', null],
  ['region-south', 'degraded', southNote],
  ['github', 'degraded', githubNote],
  ['paypal', 'down', paypalNote],
];

export async function seedDemoStatus(db: Database): Promise<boolean> {
  const [{ existing }] = await db.select({ existing: count() }).from(statusIncidents);
  if (existing > 0) return false;
  for (const [key, state, note] of changes) await setStatus(db, serverActor('demo data'), key, state, note);
  return true;
}
