/**
 * The download page's only script: detects the visitor's system, puts the
 * matching package first and turns the platform lists into tabs. Without it
 * every platform's list is simply shown. With it, the page is built showing
 * what it offers a system it cannot tell (the stylesheet hides the other
 * platforms' lists from the first paint), so the script only swaps content
 * and nothing moves.
 */
import { detectUa, recommendedPackage, type ClientHints, type PackageChoice } from './platform.ts';
import type { PlatformName } from '@/lib/releases.ts';
import { $selectPlatform, $ua } from './state.ts';

interface UaDataNavigator extends Navigator {
  userAgentData?: { platform: string; getHighEntropyValues(hints: string[]): Promise<ClientHints> };
}

async function clientHints(nav: UaDataNavigator): Promise<ClientHints> {
  try {
    return (await nav.userAgentData?.getHighEntropyValues(['platform', 'architecture', 'bitness'])) ?? {};
  } catch {
    return {};
  }
}

/** The packages as the page lists them, so the script needs no copy of releases.json. */
function listedPackages(root: HTMLElement): Record<PlatformName, PackageChoice[]> {
  const platforms = {} as Record<PlatformName, PackageChoice[]>;
  for (const panel of root.querySelectorAll<HTMLElement>('[data-platform-panel]')) {
    platforms[panel.dataset.platformPanel as PlatformName] = [...panel.querySelectorAll<HTMLElement>('[data-package-id]')].map((el) => ({
      id: el.dataset.packageId!,
      cpu: el.dataset.cpu as PackageChoice['cpu'],
    }));
  }
  return platforms;
}

function showPlatform(root: HTMLElement, platform: PlatformName): void {
  for (const tab of root.querySelectorAll<HTMLButtonElement>('[data-platform-tab]')) {
    tab.setAttribute('aria-selected', String(tab.dataset.platformTab === platform));
  }
  for (const panel of root.querySelectorAll<HTMLElement>('[data-platform-panel]')) {
    panel.hidden = panel.dataset.platformPanel !== platform;
  }
}

function showRecommendation(root: HTMLElement, packageId: string): void {
  const slot = root.querySelector<HTMLElement>('[data-recommended]');
  const source = root.querySelector<HTMLElement>(`[data-platform-panel] [data-package-id="${packageId}"]`);
  const list = slot?.querySelector('ul');
  if (!slot || !source || !list) return;
  const label = slot.querySelector<HTMLElement>('[data-recommended-label]');
  if (label) label.textContent = source.dataset.label ?? '';
  list.replaceChildren(source.cloneNode(true));
}

function wireCopyButtons(root: HTMLElement): void {
  root.addEventListener('click', async (event) => {
    const button = (event.target as HTMLElement).closest<HTMLButtonElement>('[data-copy]');
    const code = button?.parentElement?.querySelector('code');
    if (!button || !code) return;
    try {
      await navigator.clipboard.writeText(code.textContent ?? '');
      button.textContent = button.dataset.copied ?? '';
    } catch {
      // Clipboard refused (insecure origin or permission): select the text so Ctrl+C works.
      getSelection()?.selectAllChildren(code);
    }
  });
}

const root = document.querySelector<HTMLElement>('[data-download-page]');
if (root) {
  wireCopyButtons(root);
  for (const tab of root.querySelectorAll<HTMLButtonElement>('[data-platform-tab]')) {
    tab.addEventListener('click', () => $selectPlatform.set(tab.dataset.platformTab as PlatformName));
  }
  $selectPlatform.subscribe((platform) => showPlatform(root, platform));

  const nav = navigator as UaDataNavigator;
  const ua = detectUa(nav.userAgent, await clientHints(nav), nav.maxTouchPoints);
  $ua.set(ua);
  const { platform, pkg } = recommendedPackage(listedPackages(root), ua);
  $selectPlatform.set(platform);
  showRecommendation(root, pkg.id);
  root.dataset.detected = `${ua.name}/${ua.cpu}`;
}
