import type { ChatChunk } from '../openai-api/chat-completion.ts';
import type { TrackedAttempt } from '../routing/create-routing.ts';

/**
 * Passes a route's chunks through and reports how the stream ended to the route's health: its end is a success, a
 * break a mid-stream failure, and the client leaving (or the consumer stopping) says nothing about the route. The
 * attempt stays in flight until then, so the concurrency cap counts streams that are still running.
 */
export function trackStreamHealth(input: {
  chunks: AsyncIterator<ChatChunk>;
  attempt: TrackedAttempt;
  signal: AbortSignal;
}): AsyncIterator<ChatChunk> {
  const { chunks, attempt, signal } = input;
  const abandon = () => attempt.finish({ kind: 'abandoned' });
  if (signal.aborted) abandon();
  else signal.addEventListener('abort', abandon, { once: true });
  const finish = (outcome: Parameters<TrackedAttempt['finish']>[0]) => {
    signal.removeEventListener('abort', abandon);
    attempt.finish(outcome);
  };
  return {
    next: async () => {
      try {
        const next = await chunks.next();
        if (next.done) finish({ kind: 'success' });
        return next;
      } catch (error) {
        finish(signal.aborted ? { kind: 'abandoned' } : { kind: 'failure', reason: 'mid_stream' });
        throw error;
      }
    },
    return: async (value?: unknown) => {
      finish({ kind: 'abandoned' });
      return (await chunks.return?.(value)) ?? { done: true, value: undefined };
    },
  };
}
