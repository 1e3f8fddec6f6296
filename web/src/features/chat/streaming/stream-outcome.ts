import { ApiError, toApiError } from '../../../api/api-client.ts';

/** How a streamed answer ended, with what arrived of it. */
export type StreamOutcome = {
  status: 'complete' | 'stopped' | 'interrupted' | 'failed';
  content: string;
  requestId: string | undefined;
  usage: { inputTokens: number; outputTokens: number; costUsd: number } | undefined;
  citations: { url: string; title: string }[];
  error: ApiError | undefined;
};

export type StreamInput = {
  apiKey: string;
  model: string;
  messages: { role: 'user' | 'assistant'; content: string }[];
  signal: AbortSignal;
  /** Called with the whole answer so far each time more text arrives. */
  onText: (content: string) => void;
};

/** POSTs a streaming request to `/v1`; a refusal before the stream starts becomes a `failed` outcome. */
export async function startStream(
  path: string,
  input: { apiKey: string; body: unknown; signal: AbortSignal },
): Promise<{ response: Response } | { outcome: StreamOutcome }> {
  const empty = { content: '', requestId: undefined, usage: undefined, citations: [] };
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${input.apiKey}`,
        'content-type': 'application/json',
        accept: 'text/event-stream',
      },
      body: JSON.stringify(input.body),
      signal: input.signal,
    });
  } catch {
    if (input.signal.aborted) return { outcome: { ...empty, status: 'stopped', error: undefined } };
    return { outcome: { ...empty, status: 'failed', error: new ApiError({ message: 'network error', status: 0 }) } };
  }
  if (!response.ok || !response.body) {
    const body: unknown = await response.json().catch(() => undefined);
    const requestId = response.headers.get('x-request-id') ?? undefined;
    return { outcome: { ...empty, requestId, status: 'failed', error: toApiError(body, response.status) } };
  }
  return { response };
}

/** The outcome when reading stopped early: the user's Stop, or a dropped connection (the partial answer stays). */
export function endedEarly(signal: AbortSignal): StreamOutcome['status'] {
  return signal.aborted ? 'stopped' : 'interrupted';
}
