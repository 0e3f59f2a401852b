/** The current release (content/downloads/releases.json): the site facts and the download page both read it. */
import { z } from 'zod';
import raw from '../../content/downloads/releases.json';
import type { IconName } from './icons.ts';

export const platformNames = ['windows', 'uwp', 'mac', 'linux', 'android', 'ios'] as const;
export type PlatformName = (typeof platformNames)[number];

/** Each platform's mark; the Microsoft Store build is Windows too. */
export const platformIcons: Record<PlatformName, IconName> = {
  windows: 'windows',
  uwp: 'windows',
  mac: 'apple',
  linux: 'linux',
  android: 'android',
  ios: 'appStore',
};

const sha256 = z.string().regex(/^[0-9a-f]{64}$/, 'sha256 must be 64 lowercase hex digits');

const releasePackage = z.object({
  id: z.string().min(1),
  cpu: z.enum(['x64', 'arm64', 'any']),
  kind: z.enum(['installer', 'portable', 'store', 'dmg', 'deb', 'rpm', 'tar', 'apk']),
  file: z.string().min(1),
  url: z.url(),
  size: z.number().int().positive().nullable(),
  sha256: sha256.nullable(),
});

/** A mirror: name, url, about, code, disable. */
const mirror = z.object({
  name: z.string().min(1),
  url: z.url(),
  about: z.url(),
  code: z.string().min(1),
  disable: z.boolean(),
});

const releasesSchema = z.object({
  version: z.string().regex(/^\d+\.\d+\.\d+\.\d+$/),
  clientVersion: z.string().min(1),
  date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/),
  platforms: z.object(
    Object.fromEntries(platformNames.map((p) => [p, z.array(releasePackage).min(1)])) as Record<PlatformName, z.ZodArray<typeof releasePackage>>,
  ),
  mirrors: z.object({ gitee: mirror, github: mirror }),
});

export type ReleasePackage = z.infer<typeof releasePackage>;
export type Releases = z.infer<typeof releasesSchema>;

/** content/downloads/releases.json, validated: a bad edit fails the build with the field's path. */
export function loadReleases(data: unknown = raw): Releases {
  const parsed = releasesSchema.safeParse(data);
  if (!parsed.success) throw new Error(`content/downloads/releases.json is invalid:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}
