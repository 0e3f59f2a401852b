/** Database failures the code expects and answers, told apart by their SQLSTATE (PostgreSQL and PGlite alike). */

/** A write broke a unique constraint: someone else got there first. Drizzle wraps the driver's error, so its cause is checked too. */
export function isUniqueViolation(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    if ((current as { code?: unknown }).code === '23505') return true;
  }
  return false;
}

/** SQLSTATEs of a server that is going away or not yet back: connection exceptions, shutting down, starting up, out of connections. */
const unavailableStates = /^(08...|57P01|57P02|57P03|53300)$/;
/** The socket's own failures, and node-postgres's words for a connection that ended, never came (`timeout expired`) or never came free. */
const unavailableSocketCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);
const unavailableMessages = /^(Connection terminated|timeout expired$|timeout exceeded when trying to connect|Client has encountered a connection error)/;

/** The database cannot be reached (restarting, failing over, the network): nothing this request did was committed. */
export function isDatabaseUnavailable(error: unknown): boolean {
  for (let current = error; current instanceof Error; current = current.cause) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string' && (unavailableStates.test(code) || unavailableSocketCodes.has(code))) return true;
    if (unavailableMessages.test(current.message)) return true;
  }
  return false;
}

/** When a caller may try again after the database was unavailable (`Retry-After`): a restart or a fail-over takes seconds. */
export const databaseRetryAfterMs = 5_000;
