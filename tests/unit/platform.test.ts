import { describe, expect, it } from 'vitest';
import { detectUa, recommendedPackage, verifyCommand } from '../../src/features/download/platform.ts';
import { loadReleases } from '../../src/lib/releases.ts';
import { userAgents } from '../user-agents.ts';

const releases = loadReleases();

describe('detectUa', () => {
  it.each(userAgents)('$label → $name / $cpu', ({ ua, name, cpu, maxTouchPoints }) => {
    expect(detectUa(ua, {}, maxTouchPoints)).toEqual({ name, cpu });
  });

  it('trusts client hints for the CPU when they agree on the system', () => {
    const mac = userAgents.find((u) => u.name === 'mac')!.ua;
    expect(detectUa(mac, { platform: 'macOS', architecture: 'x86', bitness: '64' })).toEqual({ name: 'mac', cpu: 'x64' });
    const win = userAgents.find((u) => u.label === 'Windows x64')!.ua;
    expect(detectUa(win, { platform: 'Windows', architecture: 'arm', bitness: '64' })).toEqual({ name: 'windows', cpu: 'arm64' });
  });

  it('ignores client hints that contradict the user agent', () => {
    const mac = userAgents.find((u) => u.name === 'mac')!.ua;
    expect(detectUa(mac, { platform: 'Linux', architecture: 'x86' }).cpu).toBe('arm64');
  });

  it('says unknown for anything else', () => {
    expect(detectUa('curl/8.5.0')).toEqual({ name: 'unknown', cpu: 'unknown' });
  });
});

describe('recommendedPackage', () => {
  it.each(userAgents)('$label gets $expected', ({ ua, maxTouchPoints, expected }) => {
    expect(recommendedPackage(releases.platforms, detectUa(ua, {}, maxTouchPoints)).pkg.id).toBe(expected);
  });

  it('offers the Windows x64 installer when the system is unknown', () => {
    expect(recommendedPackage(releases.platforms, { name: 'unknown', cpu: 'unknown' })).toMatchObject({ platform: 'windows', pkg: { id: 'win-x64-setup' } });
  });
});

describe('verifyCommand', () => {
  const pkg = (platform: 'windows' | 'mac' | 'linux', id: string) => releases.platforms[platform].find((p) => p.id === id)!;

  it('checks the published hash with each system’s own tool', () => {
    const linux = pkg('linux', 'linux-x64-deb');
    expect(verifyCommand('linux', linux)).toBe(`echo "${linux.sha256}  $HOME/Downloads/${linux.file}" | sha256sum -c -`);
    expect(verifyCommand('mac', pkg('mac', 'mac-arm64-dmg'))).toContain('shasum -a 256 -c -');
    expect(verifyCommand('windows', pkg('windows', 'win-x64-setup'))).toContain('Get-FileHash');
  });

  it('has nothing to check for store installs', () => {
    expect(verifyCommand('ios', releases.platforms.ios[0])).toBeNull();
  });
});

describe('releases.json', () => {
  it('lists every platform and both mirrors', () => {
    expect(Object.keys(releases.platforms)).toEqual(['windows', 'uwp', 'mac', 'linux', 'android', 'ios']);
    expect(Object.keys(releases.mirrors)).toEqual(['gitee', 'github']);
    expect(releases.version).toBe('3.0.1119.0');
  });

  it('fails with the path of a bad field', () => {
    const broken = structuredClone(releases) as unknown as { platforms: { mac: { sha256: string }[] } };
    broken.platforms.mac[0].sha256 = 'not-a-hash';
    expect(() => loadReleases(broken)).toThrow(/platforms\.mac\[0\]\.sha256/);
  });
});
