/** The rows of a raw `db.execute(sql…)`: both drivers answer `{ rows }`, though drizzle types them apart. */
export function rowsOf<T>(result: unknown): T[] {
  return (result as { rows: T[] }).rows;
}
