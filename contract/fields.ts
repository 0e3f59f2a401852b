/**
 * Field schemas every call builds on. All strings of the contract go through
 * `text` (or carry `printable` themselves), so a control character — a NUL that
 * PostgreSQL cannot store, a line break smuggled into a log line — is refused
 * with a 400 before any handler sees it.
 */
import * as z from 'zod/mini';

/** No control characters (Unicode category Cc: C0, DEL and C1). */
export const printable = z.regex(/^\P{Cc}*$/u, 'must not contain control characters');

/** A string without control characters, with any further checks. */
export function text(...checks: Array<z.core.$ZodCheck<string>>): z.ZodMiniString<string> {
  return z.string().check(printable, ...checks);
}

/** As `printable`, but with line breaks (\n): text a person writes in paragraphs, such as a review. */
export const printableLines = z.regex(/^(?:\P{Cc}|\n)*$/u, 'must not contain control characters other than line breaks');

/** A string in lines: no control character but the line break, with any further checks. */
export function multilineText(...checks: Array<z.core.$ZodCheck<string>>): z.ZodMiniString<string> {
  return z.string().check(printableLines, ...checks);
}

/** A database id (a Postgres `serial`) taken from a URL path segment. */
export const pathId = z.pipe(text(z.regex(/^[0-9]{1,10}$/)), z.pipe(z.transform(Number), z.int().check(z.positive(), z.maximum(2_147_483_647))));

/** The request of a call that takes nothing. */
/** A minor-unit amount (fen for CNY): a whole number, never a float. */
export const Minor = z.int().check(z.minimum(0), z.maximum(100_000_000));

export const Empty = z.optional(z.strictObject({}));
