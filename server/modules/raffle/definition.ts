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
import { definitionFromJson } from '#contract/commands/raffle.ts';
import type { RaffleDefinition } from '#contract/raffle.ts';
import { commitmentOf, newSeed } from '#contract/raffle-draw.ts';
import { recordAudit, type Actor } from '../../db/audit.ts';
import type { Database } from '../../db/database.ts';
import { raffles } from '../../db/schema/raffle.ts';
import type { FileStore } from '../../services/file-store.ts';

/** The cover's size on the page (the share-card shape); re-encoding also drops the file's metadata. */
const cover = { width: 1200, height: 630, maxInputPixels: 40_000_000 };

/** Re-encodes an image as the cover and stores it (`app.uploads.store('raffles')`); answers its file name. */
export async function storeCover(store: FileStore, bytes: Uint8Array): Promise<string> {
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
 * Reads and checks a definition file and the cover it names, on the operator's
 * machine (the CLI's `raffle create --file`); the message says what is wrong,
 * for the operator. Answers the definition as JSON text, as `--definition`
 * takes it, and the cover's bytes.
 */
export function readDefinition(file: string): { json: string; coverBytes: Buffer | null } {
  let json: string;
  try {
    json = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`Could not read ${file}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  const checked = definitionFromJson(json);
  if ('problem' in checked) throw new Error(`${file}: ${checked.problem}`);
  const coverFile = checked.definition.Cover && path.resolve(path.dirname(file), checked.definition.Cover);
  if (!coverFile) return { json, coverBytes: null };
  try {
    return { json, coverBytes: readFileSync(coverFile) };
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
