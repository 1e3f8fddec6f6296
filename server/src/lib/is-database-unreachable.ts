/** PostgreSQL's codes for a server that is shutting down, crashed, or not yet accepting connections (class 57P). */
const unavailableCodes = new Set(['57P01', '57P02', '57P03', 'ECONNREFUSED', 'ECONNRESET']);

/**
 * True when `error` is the database driver saying PostgreSQL cannot be reached right now (a restart, a failover), as
 * opposed to an error in a query (a bug or a constraint, which stays a 500 or its own answer).
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  const code = (error as Error & { code?: unknown }).code;
  if (typeof code === 'string' && unavailableCodes.has(code)) return true;
  return /^Connection terminated (unexpectedly|due to connection timeout)$|^timeout exceeded when trying to connect$/.test(
    error.message,
  );
}
