/** Whether a database error is a unique-constraint violation (PostgreSQL 23505, or SQLite's UNIQUE failure). */
export function isUniqueViolation(error: unknown): boolean {
  const candidate = error as { code?: unknown; errcode?: unknown; message?: unknown };
  if (candidate.code === '23505') return true;
  return typeof candidate.message === 'string' && candidate.message.includes('UNIQUE constraint failed');
}
