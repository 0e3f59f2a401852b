/**
 * Avatar uploads: only PNG, JPEG and WebP (told by their first bytes, before
 * any decoder runs), at most `avatarRules.maxBytes` and `maxDimension` on a
 * side — checked from the header, so a decompression bomb is refused before it
 * is decoded. The image is re-encoded into every size of `avatarRules.sizes`
 * as WebP, which drops its metadata (location, camera, comments) and anything
 * hidden after the image data.
 */
import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { avatarRules } from '#contract/account.ts';

export type AvatarProblem = 'avatarNotImage' | 'avatarTooLarge' | 'avatarTooManyPixels';
export type AvatarSize = keyof typeof avatarRules.sizes;

const signatures: Array<(bytes: Buffer) => boolean> = [
  (bytes) => bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  (bytes) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff])),
  (bytes) => bytes.subarray(0, 4).toString('latin1') === 'RIFF' && bytes.subarray(8, 12).toString('latin1') === 'WEBP',
];

const decodeOptions = { limitInputPixels: avatarRules.maxDimension ** 2, failOn: 'error' } as const;

/** The file names of one avatar: its content hash and each size in pixels. */
export type AvatarFiles = Record<AvatarSize, { name: string; bytes: Buffer }>;

export async function renderAvatar(bytes: Buffer): Promise<{ files: AvatarFiles } | { problem: AvatarProblem }> {
  if (bytes.length > avatarRules.maxBytes) return { problem: 'avatarTooLarge' };
  if (!signatures.some((matches) => matches(bytes))) return { problem: 'avatarNotImage' };
  try {
    // The header alone, not decoded: dimensions are judged before any pixel is.
    const { width, height, format } = await sharp(bytes, { limitInputPixels: false }).metadata();
    if (!['png', 'jpeg', 'webp'].includes(format)) return { problem: 'avatarNotImage' };
    if (!width || !height || width > avatarRules.maxDimension || height > avatarRules.maxDimension) return { problem: 'avatarTooManyPixels' };
    const sizes = Object.entries(avatarRules.sizes) as Array<[AvatarSize, number]>;
    // Turned upright by its EXIF orientation first, as the camera meant it; the first frame of an animation.
    const images = await Promise.all(
      sizes.map(([, pixels]) => sharp(bytes, decodeOptions).rotate().resize(pixels, pixels, { fit: 'cover' }).webp({ quality: 82 }).toBuffer()),
    );
    const hash = createHash('sha256').update(images[0]).digest('hex').slice(0, 20);
    return { files: Object.fromEntries(sizes.map(([size, pixels], index) => [size, { name: `${hash}-${pixels}.webp`, bytes: images[index] }])) as AvatarFiles };
  } catch {
    // A truncated or corrupt file behind a valid signature.
    return { problem: 'avatarNotImage' };
  }
}
