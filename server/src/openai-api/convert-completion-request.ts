import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import type { ChatRequest } from './chat-request.ts';
import type { CompletionRequest } from './completion-request.ts';

/** OpenAI's default output limit of a legacy completion. */
const defaultMaxTokens = 16;

/**
 * A legacy completion → the chat request the pipeline runs (pure): the prompt is the one user message, so a chat
 * model answers it rather than continuing it word for word (docs/api.md). What chat routes cannot honour is a 400
 * naming the field: several prompts or token-id prompts, `logprobs`, and a `best_of` other than `n` (it asks the server
 * to pick the best of several answers). `suffix` (fill-in-the-middle) is not part of the chat request: the pipeline
 * sends it to the vendor's FIM API (`pipeline/choose-fim-routes.ts`).
 */
export function convertCompletionRequest(request: CompletionRequest): ChatRequest {
  const prompt = readPrompt(request.prompt);
  refuse(request.logprobs !== undefined && request.logprobs !== null, {
    param: 'logprobs',
    message: 'logprobs is not supported on /v1/completions: most vendors behind this gateway do not return them.',
  });
  const n = request.n ?? 1;
  refuse(n !== 1 && request.suffix !== undefined && request.suffix !== null, {
    param: 'n',
    message: 'n must be 1 with suffix: fill-in-the-middle APIs return one completion.',
  });
  refuse(request.best_of !== undefined && request.best_of !== null && request.best_of !== n, {
    param: 'best_of',
    message: `best_of must equal n (${n}) here: the gateway does not rank answers on the server.`,
  });
  const chat: ChatRequest = {
    model: request.model,
    messages: [{ role: 'user', content: prompt }],
    max_tokens: request.max_tokens ?? defaultMaxTokens,
  };
  if (n !== 1) chat.n = n;
  if (request.stream === true) {
    chat.stream = true;
    // The last chunk then carries the usage and its cost, whether or not the client shows it.
    chat.stream_options = { include_usage: true };
  }
  if (request.stop !== undefined && request.stop !== null) chat.stop = request.stop;
  for (const field of ['temperature', 'top_p', 'presence_penalty', 'frequency_penalty', 'seed'] as const) {
    const value = request[field];
    if (value !== undefined && value !== null) chat[field] = value;
  }
  if (request.user !== undefined) chat.user = request.user;
  return chat;
}

function readPrompt(prompt: CompletionRequest['prompt']): string {
  const text = typeof prompt === 'string' ? prompt : prompt.length === 1 ? prompt[0] : undefined;
  refuse(text === undefined || typeof text !== 'string', {
    param: 'prompt',
    message:
      'prompt must be one string (or a list of one string): several prompts and token-id prompts are not supported.',
  });
  if (typeof text !== 'string' || text === '') {
    throw new InvalidRequestError('prompt is empty.', { param: 'prompt' });
  }
  return text;
}

function refuse(condition: boolean, input: { param: string; message: string }): void {
  if (condition) throw new InvalidRequestError(input.message, { param: input.param, code: 'unsupported_parameter' });
}
