import type { TokenUsage } from '../billing/pricing.ts';
import { InternalError } from '../errors/internal-error.ts';
import type { ChatChunk } from '../openai-api/chat-completion.ts';
import type { ChatSink } from './chat-sink.ts';
import { fromWireUsage } from './convert-usage.ts';

/** What the relay saw pass: the vendor's usage when it arrived, and how much answer text reached the client. */
export type RelayResult = {
  vendorUsage: TokenUsage | undefined;
  deliveredTextBytes: number;
  timeToFirstTokenMs: number | undefined;
  /** What broke the stream (an upstream error or the client leaving), if it did not end normally. */
  error: unknown;
};

const encoder = new TextEncoder();

/**
 * Forwards chunks to the client as they arrive (no buffering), with the requested model id, one stable id and
 * `created`. While the client's buffer is full the upstream is not read, so TCP flow control slows it down. Usage is
 * taken off the stream and kept: it is sent after settlement, with the cost, and only if the client asked for it.
 * Returns when the upstream ends, or with `error` set when it breaks mid-stream or the answer cannot be written.
 */
export async function relayStream(input: {
  chunks: AsyncIterator<ChatChunk>;
  firstChunk: ChatChunk | undefined;
  sink: ChatSink;
  identity: { id: string; created: number; model: string };
  startedAtMs: number;
  nowMs: () => number;
}): Promise<RelayResult> {
  const result: RelayResult = {
    vendorUsage: undefined,
    deliveredTextBytes: 0,
    timeToFirstTokenMs: undefined,
    error: undefined,
  };
  let chunk = input.firstChunk;
  try {
    while (chunk !== undefined) {
      if (input.sink.signal.aborted) {
        result.error = input.sink.signal.reason;
        break;
      }
      if (chunk.usage) result.vendorUsage = fromWireUsage(chunk.usage);
      if (chunk.choices.length > 0) {
        for (const choice of chunk.choices) {
          const delta = choice.delta;
          const text = (delta.content ?? '') + (delta.refusal ?? '') + (delta.reasoning_content ?? '');
          const toolText = (delta.tool_calls ?? [])
            .map((call) => (call.function.name ?? '') + (call.function.arguments ?? ''))
            .join('');
          const bytes = encoder.encode(text + toolText).length;
          if (bytes > 0 && result.timeToFirstTokenMs === undefined)
            result.timeToFirstTokenMs = input.nowMs() - input.startedAtMs;
          result.deliveredTextBytes += bytes;
        }
        const { usage: _usage, ...withoutUsage } = chunk;
        // Backpressure: the next upstream chunk is pulled only once the client can take it (no promise when it can).
        if (!input.sink.sendChunk({ ...withoutUsage, ...input.identity })) await input.sink.waitForDrain();
      }
      try {
        const next = await input.chunks.next();
        chunk = next.done ? undefined : next.value;
      } catch (error) {
        result.error = error;
        break;
      }
    }
  } catch (error) {
    // The answer could not be written (a bug on the gateway's side): the stream ends like one that broke off, so
    // what reached the client is still billed and the hold does not outlive the call.
    result.error = new InternalError('The answer could not be written.', { cause: error });
  }
  return result;
}
