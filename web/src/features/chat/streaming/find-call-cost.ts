import { listUsage } from '../../../api/account-api.ts';
import type { ChatMessage } from '../conversations/conversation-body.ts';

const attempts = 6;
const pauseMs = 500;

/**
 * What a stopped or interrupted call was billed: the stream ended before its usage chunk, so the usage record
 * (keyed by the `x-request-id` the answer carried) says it. The settlement lands just after the stream ends, so
 * this looks a few times before giving up.
 */
export async function findCallCost(requestId: string): Promise<ChatMessage['usage']> {
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const page = await listUsage({ limit: 20 });
    const record = page.data.find((row) => row.request_id === requestId);
    if (record) {
      return { inputTokens: record.input_tokens, outputTokens: record.output_tokens, costUsd: record.cost_usd };
    }
    await new Promise((resolve) => setTimeout(resolve, pauseMs));
  }
  return undefined;
}
