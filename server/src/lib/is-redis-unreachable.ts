/**
 * True when `error` is ioredis saying the server could not be reached (the connection dropped, or the command gave up
 * after its reconnection attempts), as opposed to a reply Redis sent (a script error is a bug, not an outage).
 */
export function isRedisUnreachable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  if (error.name === 'MaxRetriesPerRequestError') return true;
  return error.message === 'Connection is closed.' || error.message.startsWith("Stream isn't writeable");
}
