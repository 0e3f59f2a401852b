import type { Translate, UiKey } from '@/i18n/strings.ts';
import type { PlatformName, ReleasePackage } from '@/lib/releases.ts';

/** How the download page names a package, e.g. "Windows · x64 · Installer". */
export function packageLabel(t: Translate<UiKey>, platform: PlatformName, pkg: ReleasePackage): string {
  const cpu = pkg.cpu === 'any' ? '' : pkg.cpu === 'arm64' ? 'ARM64' : 'x64';
  return [t(`platform.${platform}`), cpu, t(`download.kind.${pkg.kind}`)].filter(Boolean).join(' · ');
}
