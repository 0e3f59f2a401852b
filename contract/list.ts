/**
 * The console's lists alike: a list command takes a sort column (one of the
 * columns it declares), a direction, a page (the first is 1) and a page size
 * (at most `listSize.max`), beside its own filters; it answers one page of
 * rows with how many there are in all. The CLI types them as `--sort <column>
 * --asc|--desc --page N --size N` (`listWords`), the console keeps them in
 * the page's URL (src/features/console/list-url.ts).
 */
import * as z from 'zod/mini';
import { UsageError } from './command.ts';

/** Rows on a page of a console list unless asked, and at most. */
export const listSize = { default: 25, max: 200 } as const;

/** The deepest page asked for: far past any real list, and a bound on the database's offset. */
export const maxPage = 100_000;

export const SortDirection = z.enum(['asc', 'desc']);
export type SortDirection = z.infer<typeof SortDirection>;

/**
 * A list command's sort, direction, page and size, to spread into its `args`:
 * `z.strictObject({ ...listArgs(['created', 'price'], 'created'), state: … })`.
 */
export function listArgs<const C extends readonly [string, ...string[]]>(columns: C, sort: C[number], dir: SortDirection = 'desc') {
  return {
    sort: z._default(z.enum(columns, { error: `sort by one of ${columns.join(', ')}` }), sort as never),
    dir: z._default(SortDirection, dir),
    page: z._default(z.int().check(z.minimum(1), z.maximum(maxPage)), 1),
    size: z._default(z.int().check(z.minimum(1), z.maximum(listSize.max, `at most ${listSize.max} rows a page`)), listSize.default),
  };
}

/** A page of a list command's result, to spread into its `result`: the rows, how many in all, which page and its size. */
export function listPage<T extends z.ZodMiniType>(row: T) {
  return { rows: z.array(row), total: z.int(), page: z.int(), size: z.int() };
}

/** The arguments every list takes, as the console and the CLI give them. */
export interface ListQuery<C extends string = string> {
  sort: C;
  dir: SortDirection;
  page: number;
  size: number;
}

/** The rows a page skips: the database's offset. */
export const offsetOf = ({ page, size }: { page: number; size: number }): number => (page - 1) * size;

/**
 * A list command's `words`: `--sort <column>`, `--asc`/`--desc`, `--page N` and `--size N`, and the
 * command's own flags, each with one value (`--state paid`), as `flags` names them (flag → argument).
 */
export function listWords(name: string, flags: Record<string, string>) {
  return (rest: string[]): Record<string, unknown> => {
    const args: Record<string, unknown> = {};
    const wrong = () =>
      new UsageError(
        `${name} takes --sort <column>, --asc or --desc, --page N, --size N${Object.keys(flags).length ? `, ${Object.keys(flags).join(', ')}` : ''}`,
      );
    for (let i = 0; i < rest.length; i++) {
      const flag = rest[i];
      if (flag === '--asc' || flag === '--desc') {
        args.dir = flag.slice(2);
        continue;
      }
      const value = rest[++i];
      if (value === undefined || !value.trim() || value.startsWith('--')) throw wrong();
      if (flag === '--sort') args.sort = value;
      else if (flag === '--page' || flag === '--size') {
        if (!/^\d{1,9}$/.test(value)) throw new UsageError(`${flag} takes a whole number (got "${value}")`);
        args[flag.slice(2)] = Number(value);
      } else if (Object.hasOwn(flags, flag)) args[flags[flag]] = value;
      else throw wrong();
    }
    return args;
  };
}
