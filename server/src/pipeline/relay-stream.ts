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
  /** After each chunk that reached the client, with the result so far (kept and read later: no copy per chunk). */
  onDelivered?: (soFar: RelayResult) => void;
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
        const bytes = countTextBytes(chunk);
        if (bytes > 0 && result.timeToFirstTokenMs === undefined) {
          result.timeToFirstTokenMs = input.nowMs() - input.startedAtMs;
        }
        result.deliveredTextBytes += bytes;
        // Backpressure: the next upstream chunk is pulled only once the client can take it (no promise when it can).
        const canTakeMore = input.sink.sendChunk(withIdentity(chunk, input.identity));
        input.onDelivered?.(result);
        if (!canTakeMore) await input.sink.waitForDrain();
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

/** The UTF-8 size of a chunk's answer text, counted without building the text or its bytes (this runs per chunk). */
function countTextBytes(chunk: ChatChunk): number {
  let bytes = 0;
  for (const { delta } of chunk.choices) {
    bytes += byteLength(delta.content) + byteLength(delta.refusal) + byteLength(delta.reasoning_content);
    for (const call of delta.tool_calls ?? [])
      bytes += byteLength(call.function.name) + byteLength(call.function.arguments);
  }
  return bytes;
}

function byteLength(text: string | null | undefined): number {
  return text ? Buffer.byteLength(text) : 0;
}

/** The chunk as the client sees it: one copy with the gateway's identity, usage left out (it comes with the cost). */
function withIdentity(chunk: ChatChunk, identity: { id: string; created: number; model: string }): ChatChunk {
  if (!('usage' in chunk)) return { ...chunk, ...identity };
  const { usage: _usage, ...withoutUsage } = chunk;
  return { ...withoutUsage, ...identity };
}
