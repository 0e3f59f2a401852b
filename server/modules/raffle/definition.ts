/**
 * A raffle as an operator describes it in a JSON file (`admin raffle create
 * --file raffle.json`; docs/tour.md "Raffles"), checked in full before anything is
 * written, and made: the seed is picked and its commitment published at once,
 * and the cover, if any, is re-encoded and stored by its content hash.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import * as z from 'zod/mini';
import { text } from '#contract/fields.ts';
import { InstantTerms, LocalizedText, Prize, RaffleKind } from '#contract/raffle.ts';
import { commitmentOf, newSeed } from '#contract/raffle-draw.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { raffles } from '../../db/schema/raffle.ts';
import { uploadStore, type FolderStore } from '../../services/file-store.ts';

export const RaffleDefinition = z
  .strictObject({
    Kind: RaffleKind,
    Title: LocalizedText,
    Description: LocalizedText,
    /** An image file (PNG, JPEG or WebP), relative to the definition file. */
    Cover: z.optional(text(z.minLength(1), z.maxLength(500))),
    Prizes: z.array(Prize).check(z.minLength(1), z.maxLength(20)),
    OpensAt: z.iso.datetime({ offset: true }),
    ClosesAt: z.iso.datetime({ offset: true }),
    /** Registration raffles: when the draw is due, at or after ClosesAt. */
    DrawAt: z.optional(z.iso.datetime({ offset: true })),
    MinAccountAgeDays: z.optional(z.int().check(z.minimum(0), z.maximum(3650))),
    /** Registration raffles: the public value the draw will use, named now (for example "the Shuang Se Qiu draw of 2026-12-03"). */
    PublicSource: z.optional(LocalizedText),
    /** Instant raffles: the odds in parts per million and the draws per account; the stock is the one prize's quantity. */
    Odds: z.optional(InstantTerms.shape.Odds),
    PerUserLimit: z.optional(z.int().check(z.positive(), z.maximum(1000))),
  })
  .check(
    z.refine((d) => Date.parse(d.OpensAt) < Date.parse(d.ClosesAt), { message: 'OpensAt must come before ClosesAt', path: ['ClosesAt'] }),
    z.refine((d) => d.Kind !== 'registration' || (d.DrawAt !== undefined && Date.parse(d.DrawAt) >= Date.parse(d.ClosesAt)), {
      message: 'a registration raffle needs DrawAt, at or after ClosesAt',
      path: ['DrawAt'],
    }),
    z.refine((d) => d.Kind !== 'registration' || d.PublicSource !== undefined, { message: 'a registration raffle needs PublicSource', path: ['PublicSource'] }),
    z.refine((d) => d.Kind !== 'instant' || (d.Odds !== undefined && d.PerUserLimit !== undefined && d.Prizes.length === 1), {
      message: 'an instant raffle needs Odds, PerUserLimit and exactly one prize',
      path: ['Odds'],
    }),
  );
export type RaffleDefinition = z.infer<typeof RaffleDefinition>;

/** Where covers are kept: uploads/raffles under DATA_DIR. */
export function coverStore(dataDir: string): FolderStore {
  return uploadStore(dataDir, 'raffles');
}

/** The cover's size on the page (the share-card shape); re-encoding also drops the file's metadata. */
const cover = { width: 1200, height: 630, maxInputPixels: 40_000_000 };

/** Re-encodes an image as the cover and stores it; answers its file name. */
export async function storeCover(store: FolderStore, bytes: Uint8Array): Promise<string> {
  const image = await sharp(bytes, { limitInputPixels: cover.maxInputPixels, failOn: 'error' })
    .rotate()
    .resize(cover.width, cover.height, { fit: 'cover' })
    .webp({ quality: 80 })
    .toBuffer();
  const name = `${createHash('sha256').update(image).digest('hex').slice(0, 20)}.webp`;
  await store.put(name, image);
  return name;
}

/**
 * Reads and checks a definition file; the message says what is wrong, for the
 * operator. Synchronous, so the command's parse can call it: a bad file is then
 * a usage error the CLI explains, not a failed call to the server.
 */
export function readDefinition(file: string): { definition: RaffleDefinition; coverBytes: Buffer | null } {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Could not read ${file} as JSON: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const parsed = RaffleDefinition.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${file}: ${issue.path.join('.') || '(top)'}: ${issue.message}`);
  }
  const coverFile = parsed.data.Cover && path.resolve(path.dirname(file), parsed.data.Cover);
  if (!coverFile) return { definition: parsed.data, coverBytes: null };
  try {
    return { definition: parsed.data, coverBytes: readFileSync(coverFile) };
  } catch (error) {
    throw new Error(`${file}: Cover: could not read ${coverFile}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
}

export async function createRaffle(db: Database, actor: Actor, definition: RaffleDefinition, coverName: string | null) {
  const instant = definition.Kind === 'instant';
  const seed = instant ? null : newSeed();
  const seedHash = seed && (await commitmentOf(seed));
  return db.transaction(async (tx) => {
    const [row] = await tx
      .insert(raffles)
      .values({
        kind: definition.Kind,
        title: definition.Title,
        description: definition.Description,
        cover: coverName,
        prizes: definition.Prizes,
        opensAt: new Date(definition.OpensAt),
        closesAt: new Date(definition.ClosesAt),
        drawAt: instant ? null : new Date(definition.DrawAt!),
        minAccountAgeDays: definition.MinAccountAgeDays ?? 0,
        seed,
        seedHash,
        publicSource: instant ? null : definition.PublicSource!,
        odds: instant ? definition.Odds! : null,
        stock: instant ? definition.Prizes[0].Quantity : null,
        perUserLimit: instant ? definition.PerUserLimit! : null,
      })
      .returning();
    // The definition as given (never the seed, which stays secret until the draw).
    await recordAudit(tx, actor, { action: 'raffle create', target: `raffle ${row.id}`, before: null, after: { ...definition, cover: coverName } });
    return row;
  });
}
