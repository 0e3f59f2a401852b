/**
 * What happens when an island cannot load. It runs inline in <head>
 * (head-scripts.ts), before the page's scripts and stylesheets are fetched:
 * it needs none of them, and any of them may be what failed.
 *
 * - An island whose code fails (Astro's `astro:hydration-error`, after Astro's
 *   own retry) or has not arrived after the time-out: its fallback
 *   (IslandFallback.astro) turns into its failure message naming the file,
 *   with a Reload button.
 * - A file of the page no island owns (a stylesheet, a page script, a chunk an
 *   island imports later: Vite's `vite:preloadError`): the first island still
 *   loading with such a fallback shows the message above itself, since the
 *   island itself may still run.
 * - A file the server no longer has (404: a new deployment replaced the
 *   page's hashed files) reloads the page, whose new version names the new
 *   files: once per file and tab (sessionStorage), so it never loops; still
 *   missing after that, the message shows.
 */

export interface IslandLoadingConfig {
  /** The sessionStorage key of the files the page was reloaded for. */
  key: string;
  /** How long an island's code may take to arrive, in milliseconds. */
  timeout: number;
}

/** Watches the page's islands and files as they load. Self-contained: it is serialised into the inline head script. */
export function watchIslandLoading(config: IslandLoadingConfig, w: Window): void {
  const d = w.document;
  // The islands still on their way (not those that wait to be scrolled to or for a media query).
  const loading = () => [...d.querySelectorAll('astro-island[ssr]:not([client=visible],[client=media],[data-island-failed])')];
  // The file a message names ("Failed to fetch dynamically imported module: http://…/x.js?astro-retry=1"), without its query.
  const fileIn = (message: unknown) => /\S+\.(?:js|css)\b/.exec(String(message))?.[0];
  const show = (island: Element, file: string, inPlace: boolean) => {
    const box = island.querySelector<HTMLElement>('[data-island-failure]')!;
    const line = box.querySelector<HTMLElement>(`[data-chunk=${file.endsWith('.css') ? 'stylesheet' : 'script'}]`)!;
    line.querySelector('code')!.textContent = file.split('/').pop()!;
    line.hidden = box.hidden = false;
    if (inPlace) island.replaceChildren(box);
    else island.before(box);
  };
  // A file that did not load, of one island or (without one) of the page.
  const failed = async (address: string, island?: Element) => {
    const path = new URL(address, w.location.href).pathname;
    const status = await w.fetch(path, { method: 'HEAD', cache: 'no-store' }).then(
      (response) => response.status,
      () => 0,
    );
    try {
      const reloaded: string[] = JSON.parse(w.sessionStorage.getItem(config.key) || '[]');
      if (status === 404 && !reloaded.includes(path)) {
        w.sessionStorage.setItem(config.key, JSON.stringify(reloaded.concat(path)));
        return w.location.reload();
      }
    } catch {
      // Without storage nothing guards against a loop: the message offers the reload instead.
    }
    if (d.readyState === 'loading') await new Promise((ready) => d.addEventListener('DOMContentLoaded', ready, { once: true }));
    const target = island ?? loading().find((candidate) => candidate.querySelector('[data-island-failure]'));
    if (target?.querySelector('[data-island-failure]')) show(target, path, Boolean(island));
  };

  w.addEventListener('astro:hydration-error', (event) => {
    const island = event.target as Element;
    const { error, componentUrl } = (event as CustomEvent<{ error?: Error; componentUrl: string }>).detail;
    island.setAttribute('data-island-failed', '');
    void failed(fileIn(error?.message) ?? componentUrl, island);
  });
  // A stylesheet or script element of the page (the event does not bubble: it is caught on its way down).
  w.addEventListener(
    'error',
    (event) => {
      const file = event.target;
      const address = file instanceof HTMLLinkElement ? file.href : file instanceof HTMLScriptElement ? file.src : '';
      if (address) void failed(address);
    },
    true,
  );
  w.addEventListener('vite:preloadError', (event) => {
    const file = fileIn((event as Event & { payload?: Error }).payload?.message);
    if (file) void failed(file);
  });
  w.setTimeout(() => {
    for (const island of loading()) {
      island.setAttribute('data-island-failed', '');
      if (island.querySelector('[data-island-failure]')) show(island, island.getAttribute('component-url')!, true);
    }
  }, config.timeout);
  d.addEventListener('click', (event) => {
    if ((event.target as Element).closest?.('[data-island-reload]')) w.location.reload();
  });
}
