/** How operators' command results read on a terminal: the pieces every module's `format` is made of. */

/** 2026-05-20T10:31:12.345Z → 2026-05-20 10:31:12Z: to the second is enough on a terminal. */
export const time = (iso: string): string => iso.replace('T', ' ').replace(/\.\d+Z$/, 'Z');

export const orDash = (value: string | null): string => value ?? '-';

/** Minor units as a decimal: 12345 → 123.45. */
export const money = (minor: number | null, currency = ''): string => (minor === null ? '-' : `${(minor / 100).toFixed(2)}${currency ? ` ${currency}` : ''}`);

/** Left-aligned columns, two spaces apart. */
export function table(headers: string[], rows: Array<Array<string | number>>): string {
  const cells = [headers, ...rows.map((row) => row.map(String))];
  const widths = headers.map((_, column) => Math.max(...cells.map((row) => row[column].length)));
  return cells
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column]))
        .join('  ')
        .trimEnd(),
    )
    .join('\n');
}

export function indent(text: string): string {
  return text.replace(/^/gm, '  ');
}

export const noUser = (key: string): string => `No user with id, phone or e-mail "${key}".`;

/** A list page's place on a terminal: `rows 26–50 of 1234 (page 2 of 50)`. */
export function pageLine({ rows, total, page, size }: { rows: unknown[]; total: number; page: number; size: number }): string {
  const from = (page - 1) * size + 1;
  return `rows ${rows.length ? `${from}–${from + rows.length - 1}` : 'none'} of ${total} (page ${page} of ${Math.max(1, Math.ceil(total / size))})`;
}
