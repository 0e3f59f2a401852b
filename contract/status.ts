/**
 * Acceleration status (`accelerate`): the
 * live state of each acceleration region and accelerated service, set by
 * operators (`npm run admin -- status set …`), pushed through the hub to open
 * pages, and published as a JSON answer and JSON Feed / Atom feeds of
 * incidents for status aggregators and the desktop client.
 */
import * as z from 'zod/mini';
import { route } from './api.ts';
import { Empty, multilineText, text } from './fields.ts';
import { localeCodes, type LocaleCode } from './locales.ts';
import type { HubEvent } from './realtime.ts';

type Names = Record<LocaleCode, string>;

/** A name that reads the same everywhere (a brand). */
const brand = (name: string): Names => Object.fromEntries(localeCodes.map((code) => [code, name])) as Names;

/**
 * What the board shows, in this order: the regions acceleration runs from,
 * then the accelerated services (content/pages/<locale>/accelerate.md lists the same).
 */
export const statusTargets = [
  {
    key: 'region-north',
    kind: 'region',
    name: {
      'zh-CN': '华北节点',
      'zh-TW': '華北節點',
      en: 'North China nodes',
      es: 'Nodos del norte de China',
      it: 'Nodi della Cina settentrionale',
      ja: '華北ノード',
      ko: '화북 노드',
      ru: 'Узлы Северного Китая',
    },
  },
  {
    key: 'region-east',
    kind: 'region',
    name: {
      'zh-CN': '华东节点',
      'zh-TW': '華東節點',
      en: 'East China nodes',
      es: 'Nodos del este de China',
      it: 'Nodi della Cina orientale',
      ja: '華東ノード',
      ko: '화동 노드',
      ru: 'Узлы Восточного Китая',
    },
  },
  {
    key: 'region-south',
    kind: 'region',
    name: {
      'zh-CN': '华南节点',
      'zh-TW': '華南節點',
      en: 'South China nodes',
      es: 'Nodos del sur de China',
      it: 'Nodi della Cina meridionale',
      ja: '華南ノード',
      ko: '화남 노드',
      ru: 'Узлы Южного Китая',
    },
  },
  {
    key: 'region-asia',
    kind: 'region',
    name: {
      'zh-CN': '亚太节点',
      'zh-TW': '亞太節點',
      en: 'Asia-Pacific nodes',
      es: 'Nodos de Asia-Pacífico',
      it: 'Nodi Asia-Pacifico',
      ja: 'アジア太平洋ノード',
      ko: '아시아 태평양 노드',
      ru: 'Узлы Азиатско-Тихоокеанского региона',
    },
  },
  {
    key: 'steam-store',
    kind: 'service',
    name: {
      'zh-CN': 'Steam 商店',
      'zh-TW': 'Steam 商店',
      en: 'Steam store',
      es: 'Tienda de Steam',
      it: 'Negozio di Steam',
      ja: 'Steam ストア',
      ko: 'Steam 상점',
      ru: 'Магазин Steam',
    },
  },
  {
    key: 'steam-community',
    kind: 'service',
    name: {
      'zh-CN': 'Steam 社区',
      'zh-TW': 'Steam 社群',
      en: 'Steam community',
      es: 'Comunidad de Steam',
      it: 'Comunità di Steam',
      ja: 'Steam コミュニティ',
      ko: 'Steam 커뮤니티',
      ru: 'Сообщество Steam',
    },
  },
  {
    key: 'steam-workshop',
    kind: 'service',
    name: {
      'zh-CN': 'Steam 创意工坊',
      'zh-TW': 'Steam 工作坊',
      en: 'Steam Workshop',
      es: 'Workshop de Steam',
      it: 'Workshop di Steam',
      ja: 'Steam ワークショップ',
      ko: 'Steam 창작마당',
      ru: 'Мастерская Steam',
    },
  },
  { key: 'discord', kind: 'service', name: brand('Discord') },
  { key: 'github', kind: 'service', name: brand('GitHub') },
  { key: 'twitch', kind: 'service', name: brand('Twitch') },
  { key: 'epic', kind: 'service', name: { ...brand('Epic Games Store'), 'zh-CN': 'Epic 游戏商城', 'zh-TW': 'Epic 遊戲商城' } },
  { key: 'ea', kind: 'service', name: brand('Origin / EA app') },
  { key: 'ubisoft', kind: 'service', name: brand('Ubisoft Connect') },
  { key: 'battlenet', kind: 'service', name: brand('Battle.net') },
  { key: 'paypal', kind: 'service', name: brand('PayPal') },
] as const satisfies ReadonlyArray<{ key: string; kind: 'region' | 'service'; name: Names }>;

export type StatusTargetKey = (typeof statusTargets)[number]['key'];

/** A region's or service's name in the reader's language. */
export const statusTargetName = (key: StatusTargetKey, locale: LocaleCode): string => statusTargets.find((target) => target.key === key)!.name[locale];
export const statusTargetKeys = statusTargets.map((target) => target.key) as [StatusTargetKey, ...StatusTargetKey[]];

export const serviceStates = ['up', 'degraded', 'down'] as const;
export const ServiceState = z.enum(serviceStates);
export type ServiceState = z.infer<typeof ServiceState>;

/** The longest note an operator may write, per locale. */
export const statusNoteMaxLength = 500;

/** An operator's note: in one or more locales; a reader without their own sees `Fallback`'s. */
export const StatusNote = z.object({
  Texts: z.partialRecord(z.enum(localeCodes), text(z.minLength(1), z.maxLength(statusNoteMaxLength))),
  Fallback: z.enum(localeCodes),
});
export type StatusNote = z.infer<typeof StatusNote>;

/** The note's text for a reader, and the locale it is written in. */
export function noteFor(note: StatusNote, locale: LocaleCode): { text: string; locale: LocaleCode } | null {
  const own = note.Texts[locale];
  if (own) return { text: own, locale };
  const fallback = note.Texts[note.Fallback];
  return fallback ? { text: fallback, locale: note.Fallback } : null;
}

export const ServiceStatus = z.object({
  Key: z.enum(statusTargetKeys),
  State: ServiceState,
  /** Since when it has been in this state. */
  Since: z.iso.datetime(),
  Note: z.nullable(StatusNote),
  UpdatedAt: z.iso.datetime(),
});
export type ServiceStatus = z.infer<typeof ServiceStatus>;

/** One change of state or note, newest first in the feeds. */
export const StatusIncident = z.object({
  Id: z.int(),
  Key: z.enum(statusTargetKeys),
  State: ServiceState,
  Previous: ServiceState,
  Note: z.nullable(StatusNote),
  At: z.iso.datetime(),
});
export type StatusIncident = z.infer<typeof StatusIncident>;

/** What one `status set` did: the target as it is now, and the incident it recorded. */
export const StatusChange = z.object({ Service: ServiceStatus, Incident: StatusIncident });
export type StatusChange = z.infer<typeof StatusChange>;

/** Pushed to everyone when an acceleration region or service changes state or note: open accelerate pages show it at once. */
export const serviceStatusEvent = { name: 'AccelerationStatusNoticeMsg', arguments: z.tuple([StatusChange]) } as const satisfies HubEvent;

export const statusBase = '/status';
/** The public feeds of incidents, under the API base: JSON Feed 1 and Atom; `?lang=` picks the language, English by default. */
export const statusFeedPaths = { json: `${statusBase}/feed.json`, atom: `${statusBase}/feed.atom` } as const;

/** The board is pushed live, so a short shared cache only spares the server a crowd of first loads. */
export const statusCacheMs = 15_000;

/** How many of the latest incidents the board shows under the services. */
export const statusBoardIncidents = 10;

/** How many incidents the feeds carry. */
export const statusFeedSize = 50;

/** A feed document, in the language `lang` names. */
const feed = {
  method: 'GET',
  encrypted: false,
  shape: 'raw',
  auth: 'none',
  request: z.object({ lang: z.optional(z.enum(localeCodes)) }),
  response: multilineText(),
} as const;

export const statusCalls = {
  /** Every region and service, in `statusTargets` order. */
  board: route({
    method: 'GET',
    path: statusBase,
    encrypted: false,
    shape: 'envelope',
    auth: 'none',
    request: Empty,
    response: z.object({ Services: z.array(ServiceStatus), Incidents: z.array(StatusIncident) }),
  }),
  feedJson: route({ ...feed, path: statusFeedPaths.json }),
  feedAtom: route({ ...feed, path: statusFeedPaths.atom }),
};
