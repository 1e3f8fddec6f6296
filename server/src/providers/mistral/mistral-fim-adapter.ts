import type { ChatRequest } from '../../openai-api/chat-request.ts';
import { InternalError } from '../../errors/internal-error.ts';
import type { ProviderAdapter } from '../provider-adapter.ts';

/**
 * Mistral's fill-in-the-middle API for `/v1/completions` with `suffix` (Codestral models): `POST /v1/fim/completions`
 * with `prompt` (the text before the cursor) and `suffix` (the text after it). Its answer is a chat completion, whole
 * or streamed as chat chunks, so the chat adapter reads it and reads its errors; only the request differs. Other
 * Mistral models answer a 400, passed on as the client's error.
 * @see https://docs.mistral.ai/api/#tag/fim/operation/fim_completion_v1_fim_completions_post
 */
export function createMistralFimAdapter(chatAdapter: ProviderAdapter, suffix: string): ProviderAdapter {
  return {
    ...chatAdapter,
    buildRequest: (input) => {
      const chat = chatAdapter.buildRequest(input);
      const chatPath = '/chat/completions';
      if (!chat.url.endsWith(chatPath)) throw new InternalError(`Unexpected Mistral chat URL: ${chat.url}`);
      const body = {
        model: input.target.upstreamModel,
        prompt: readPrompt(input.request),
        suffix,
        ...pickSampling(input.request),
        ...(input.isStreaming ? { stream: true } : {}),
      };
      return { ...chat, url: `${chat.url.slice(0, -chatPath.length)}/fim/completions`, body: JSON.stringify(body) };
    },
  };
}

/** `/v1/completions` sends its prompt as the one user message (`convert-completion-request.ts`). */
function readPrompt(request: ChatRequest): string {
  const message = request.messages[0];
  if (request.messages.length !== 1 || message?.role !== 'user' || typeof message.content !== 'string') {
    throw new InternalError('A fill-in-the-middle request carries its prompt as one user message.');
  }
  return message.content;
}

function pickSampling(request: ChatRequest): Record<string, unknown> {
  const maxTokens = request.max_completion_tokens ?? request.max_tokens;
  return {
    ...(maxTokens === undefined || maxTokens === null ? {} : { max_tokens: maxTokens }),
    ...(request.temperature === undefined || request.temperature === null ? {} : { temperature: request.temperature }),
    ...(request.top_p === undefined || request.top_p === null ? {} : { top_p: request.top_p }),
    ...(request.stop === undefined || request.stop === null ? {} : { stop: request.stop }),
    ...(request.seed === undefined || request.seed === null ? {} : { random_seed: request.seed }),
  };
}
