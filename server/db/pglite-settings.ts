/**
 * How PGlite runs, wherever it is opened (open.ts, new-folder-process.ts).
 *
 * PostgreSQL's buffer cache inside PGlite: its default of 128 MB lives in the
 * WebAssembly memory, grows it to some 190 MB and stays resident. The data
 * files are read through the operating system's own cache anyway, so 16 MB
 * costs a lookup little and takes some 170 MB off the server's RSS (measured
 * with a fresh folder: 470–521 MB → 303–326 MB).
 */
import { PGlite } from '@electric-sql/pglite';

export const pgliteStartParams = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];
