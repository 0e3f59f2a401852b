/** The sponsor list a build bakes into /sponsor: read from the API at BUILD_API_URL, or empty when there is none or it cannot be read. */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { donationCalls } from '#contract/donation.ts';
import { fetchSponsors } from '../../src/lib/sponsors.ts';

const sponsors = [{ Name: 'Kind Player', At: '2026-11-24T08:00:00.000Z' }];
let server: Server;
let origin: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    response.setHeader('content-type', 'application/json');
    if (request.url === `/api${donationCalls.sponsors.path}`) response.end(JSON.stringify({ code: 200, message: 'OK', data: sponsors }));
    else response.end(JSON.stringify({ code: 200, message: 'OK', data: [{ Name: 42 }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

describe('the build-time sponsor list', () => {
  it('is the API list', async () => {
    expect(await fetchSponsors(`${origin}/`)).toEqual(sponsors);
  });

  it('is empty, with a warning, when the API cannot be reached or answers something else', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    expect(await fetchSponsors('http://127.0.0.1:9')).toEqual([]);
    expect(await fetchSponsors(`${origin}/elsewhere`)).toEqual([]);
    expect(warn).toHaveBeenCalledTimes(2);
    warn.mockRestore();
  });
});
