/**
 * Acceleration status end to end: the board, `status set` and what it keeps
 * (since when, notes, incidents), the push that reaches a page without a
 * login, the JSON Feed and Atom feeds in the language asked for, and the
 * command's refusals.
 */
import { HttpTransportType } from '@microsoft/signalr';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseWords, UsageError, type ResultOf } from '#contract/command.ts';
import { operatorCommands } from '#contract/commands.ts';
import type { statusCommands } from '#contract/commands/status.ts';
import { serviceStatusEvent, statusCalls, statusTargetKeys, type StatusChange } from '#contract/status.ts';
import { hubClient, nextCall, startHubApp, type HubApp } from '../realtime/harness.ts';
import { runAdmin } from './harness.ts';

let t: HubApp;
beforeAll(async () => {
  t = await startHubApp();
});
afterAll(() => t.close());

type Set = ResultOf<typeof statusCommands.set>;
const set = (...words: string[]) => runAdmin<Set>(t, 'status', 'set', ...words);
const board = async () => (await t.call(statusCalls.board)).body.data;

describe('the board', () => {
  it('lists every region and service, up from the start, with a short shared cache', async () => {
    const answer = await t.call(statusCalls.board);
    expect(answer.headers['cache-control']).toBe('public, max-age=15');
    expect(answer.body.data.Services.map((service) => service.Key)).toEqual(statusTargetKeys);
    expect(answer.body.data.Services.every((service) => service.State === 'up' && service.Note === null)).toBe(true);
  });

  it('takes a state and notes from `status set`, keeps since-when while only the note changes, and records every change', async () => {
    const first = await set('github', 'degraded', '--note', 'Slow downloads', '--note-ja', 'ダウンロードが遅い');
    expect(first.code).toBe(200);
    expect(first.data.service).toMatchObject({
      Key: 'github',
      State: 'degraded',
      Note: { Fallback: 'en', Texts: { en: 'Slow downloads', ja: 'ダウンロードが遅い' } },
    });
    expect(first.data.pushed).toBe(true);

    const noteOnly = await set('github', 'degraded', '--note-zh-CN', '下载较慢');
    expect(noteOnly.data.service.Since).toBe(first.data.service.Since);
    expect(noteOnly.data.service.Note).toEqual({ Fallback: 'zh-CN', Texts: { 'zh-CN': '下载较慢' } });

    const back = await set('github', 'up');
    expect(back.data.service).toMatchObject({ State: 'up', Note: null });
    expect(Date.parse(back.data.service.Since)).toBeGreaterThanOrEqual(Date.parse(first.data.service.Since));

    const { Services, Incidents } = await board();
    expect(Services.find((service) => service.Key === 'github')).toEqual(back.data.service);
    expect(Incidents.slice(0, 3).map((incident) => [incident.Key, incident.Previous, incident.State])).toEqual([
      ['github', 'degraded', 'up'],
      ['github', 'degraded', 'degraded'],
      ['github', 'up', 'degraded'],
    ]);
  });

  it('refuses unknown services, states and options, and notes that are empty, too long or more than a line', () => {
    const parse =
      (...words: string[]) =>
      () =>
        parseWords(operatorCommands, ['status', 'set', ...words]);
    expect(parse('myspace', 'up')).toThrow(UsageError);
    expect(parse('github', 'sideways')).toThrow(UsageError);
    expect(parse('github', 'down', '--colour', 'red')).toThrow(UsageError);
    expect(parse('github', 'down', '--note')).toThrow(UsageError);
    expect(parse('github', 'down', '--note', ' ')).toThrow(UsageError);
    expect(parse('github', 'down', '--note', 'x'.repeat(501))).toThrow(UsageError);
    expect(parse('github', 'down', '--note', 'two\nlines')).toThrow(UsageError);
    expect(parse('github', 'down', '--note-xx', 'who')).toThrow(UsageError);
    expect(() => parseWords(operatorCommands, ['status', 'list', 'extra'])).toThrow(UsageError);
  });
});

describe('the push', () => {
  it('reaches a page without a login as soon as `status set` runs', async () => {
    const page = hubClient(t.url, HttpTransportType.WebSockets, () => '');
    await page.start();
    try {
      const pushed = nextCall(page, serviceStatusEvent.name);
      const started = performance.now();
      const result = await set('discord', 'down', '--note', 'Voice servers unreachable');
      const [change] = (await pushed) as [StatusChange];
      const took = performance.now() - started;
      expect(change.Service).toEqual(result.data.service);
      expect(change.Incident).toMatchObject({ Key: 'discord', Previous: 'up', State: 'down' });
      expect(took).toBeLessThan(1000);
    } finally {
      await page.stop();
      await set('discord', 'up');
    }
  });
});

describe('the feeds', () => {
  const get = (path: string) => t.app.inject({ url: `/api${path}` });

  it('publish the latest incidents as JSON Feed and Atom, in the language asked for, English by default', async () => {
    await set('steam-store', 'degraded', '--note', 'Store pages <b>slow</b> & flaky', '--note-ru', 'Страницы магазина открываются медленно');
    const json = await get('/status/feed.json');
    expect(json.headers['content-type']).toBe('application/feed+json; charset=utf-8');
    expect(json.headers['cache-control']).toBe('public, max-age=15');
    const feed = json.json() as {
      title: string;
      home_page_url: string;
      items: Array<{ id: string; title: string; content_html: string; date_modified: string }>;
    };
    expect(feed.title).toBe('Beacon Toolkit acceleration status');
    expect(feed.home_page_url).toMatch(/\/en\/accelerate$/);
    expect(feed.items[0]).toMatchObject({ title: 'Steam store: degraded', content_html: 'Store pages &#60;b&#62;slow&#60;/b&#62; &#38; flaky' });

    const atom = await get('/status/feed.atom?lang=ru');
    expect(atom.headers['content-type']).toBe('application/atom+xml; charset=utf-8');
    expect(atom.body).toContain('<feed xmlns="http://www.w3.org/2005/Atom" xml:lang="ru">');
    // RFC 4287 §4.1.1 and §4.1.2: the feed has its id, title, updated and an author (its entries name none);
    // every entry its id, title and updated.
    const [head, ...entries] = atom.body.split('<entry>');
    for (const element of ['id', 'title', 'updated']) expect(head, element).toMatch(new RegExp(`<${element}>[^<]+</${element}>`));
    expect(head).toMatch(/<author>\s*<name>Beacon Toolkit<\/name>/);
    expect(entries.length).toBeGreaterThan(0);
    for (const entry of entries)
      for (const element of ['id', 'title', 'updated']) expect(entry, element).toMatch(new RegExp(`<${element}[^>]*>\\S[\\s\\S]*?</${element}>`));
    expect(atom.body).toContain('Магазин Steam');
    expect(atom.body).toContain('Страницы магазина открываются медленно');
    expect(atom.body).toMatch(/<link rel="alternate" href="[^"]*\/ru\/accelerate"\/>/);
    // No note of its own in Korean: the English one, as text.
    expect((await get('/status/feed.atom?lang=ko')).body).toContain('Store pages &#60;b&#62;slow');

    expect((await get('/status/feed.json?lang=xx')).statusCode).toBe(400);
    await set('steam-store', 'up');
  });
});
