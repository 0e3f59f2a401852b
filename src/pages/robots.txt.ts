import type { APIRoute } from 'astro';

/** Crawl everything public; keep account and pay pages (noindex anyway) out, and point to the sitemap. */
export const GET: APIRoute = ({ site }) =>
  new Response(
    [
      'User-agent: *',
      'Disallow: /account/',
      'Disallow: /*/account/',
      'Disallow: /payment',
      'Disallow: /*/payment',
      'Allow: /',
      '',
      `Sitemap: ${new URL('/sitemap-index.xml', site).href}`,
      '',
    ].join('\n'),
    { headers: { 'Content-Type': 'text/plain; charset=utf-8' } },
  );
