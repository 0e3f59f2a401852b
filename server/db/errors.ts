/** Database failures the code expects and answers, told apart by their SQLSTATE (PostgreSQL and PGlite alike). */

/** A write broke a unique constraint: someone else got there first. Drizzle wraps the driver's error, so its cause is checked too. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
