import type { PlatformName, ReleasePackage } from '@/lib/releases.ts';

/** What choosing a package needs to know of each: its id and CPU. */
export type PackageChoice = Pick<ReleasePackage, 'id' | 'cpu'>;

/** The global `ua` state: the visitor's system and CPU. */
export interface UaState {
  name: PlatformName | 'unknown';
  cpu: 'x64' | 'arm64' | 'x86' | 'unknown';
}

/** The User-Agent Client Hints a Chromium browser can add (navigator.userAgentData). */
export interface ClientHints {
  platform?: string;
  architecture?: string;
  bitness?: string;
}

/**
 * Reads the system and CPU from the user agent. The UA string decides the
 * system; client hints refine the CPU only when they agree on the system,
 * because browsers freeze the UA's CPU token (every Mac says "Intel").
 */
export function detectUa(ua: string, hints: ClientHints = {}, maxTouchPoints = 0): UaState {
  const s = ua.toLowerCase();
  let state: UaState;
  if (/iphone|ipad|ipod/.test(s) || (s.includes('macintosh') && maxTouchPoints > 1)) {
    state = { name: 'ios', cpu: 'arm64' };
  } else if (s.includes('android')) {
    state = { name: 'android', cpu: /x86_64|x64/.test(s) ? 'x64' : 'arm64' };
  } else if (s.includes('windows')) {
    const cpu = /arm64|aarch64|\barm\b/.test(s) ? 'arm64' : /win64|wow64|x64|amd64/.test(s) ? 'x64' : 'x86';
    state = { name: 'windows', cpu };
  } else if (s.includes('mac os x') || s.includes('macintosh')) {
    // Apple silicon has shipped in every new Mac since 2020; Intel is the exception hints reveal.
    state = { name: 'mac', cpu: 'arm64' };
  } else if (s.includes('linux') || s.includes('x11') || s.includes('cros')) {
    state = { name: 'linux', cpu: /aarch64|arm64|armv8/.test(s) ? 'arm64' : 'x64' };
  } else {
    return { name: 'unknown', cpu: 'unknown' };
  }
  const hintedSystem = hints.platform?.toLowerCase();
  const agrees = hintedSystem && (hintedSystem === state.name || (hintedSystem === 'macos' && state.name === 'mac'));
  if (agrees && hints.architecture) {
    state.cpu = hints.architecture === 'arm' ? 'arm64' : hints.bitness === '32' ? 'x86' : 'x64';
  }
  return state;
}

/** The package to offer first: the detected system's, matching its CPU where it can. */
export function recommendedPackage<P extends PackageChoice>(platforms: Record<PlatformName, P[]>, ua: UaState): { platform: PlatformName; pkg: P } {
  const platform: PlatformName = ua.name === 'unknown' ? 'windows' : ua.name;
  const list = platforms[platform];
  const cpu = ua.cpu === 'x86' ? 'x64' : ua.cpu;
  const pkg = list.find((p) => p.cpu === cpu) ?? list.find((p) => p.cpu === 'any') ?? list[0];
  return { platform, pkg };
}

/** A command that checks a download against its published SHA-256 on that system. */
export function verifyCommand(platform: PlatformName, pkg: ReleasePackage): string | null {
  if (!pkg.sha256) return null;
  switch (platform) {
    case 'windows':
      return `if ((Get-FileHash "$HOME\\Downloads\\${pkg.file}" -Algorithm SHA256).Hash -eq "${pkg.sha256}") { "OK" } else { "MISMATCH" }`;
    case 'mac':
      return `echo "${pkg.sha256}  $HOME/Downloads/${pkg.file}" | shasum -a 256 -c -`;
    case 'linux':
      return `echo "${pkg.sha256}  $HOME/Downloads/${pkg.file}" | sha256sum -c -`;
    case 'android':
      return `sha256sum ${pkg.file}`;
    default:
      return null;
  }
}
