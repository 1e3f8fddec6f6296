import type { ChatChunk, ChatCompletion, FinishReason, Usage } from './chat-completion.ts';
import type { TextCompletion } from './completion-request.ts';

/** How a legacy completion is told apart and answered: its id and the prompt `echo` puts before each choice. */
export type TextCompletionIdentity = {
  id: string;
  echoedPrompt: string | undefined;
  /** `stream_options.include_usage`: the usage chunk reaches the client only when it asked for it. */
  isUsageRequested?: boolean;
};

/** A chat completion → the legacy `text_completion` (pure); with `echo`, each choice's text starts with the prompt. */
export function convertToTextCompletion(completion: ChatCompletion, identity: TextCompletionIdentity): TextCompletion {
  return {
    id: identity.id,
    object: 'text_completion',
    created: completion.created,
    model: completion.model,
    choices: completion.choices.map((choice) => ({
      text: (identity.echoedPrompt ?? '') + (choice.message.content ?? choice.message.refusal ?? ''),
      index: choice.index,
      logprobs: null,
      finish_reason: mapFinishReason(choice.finish_reason),
    })),
    ...(completion.usage ? { usage: convertUsage(completion.usage) } : {}),
  };
}

/**
 * A stream of chat chunks → legacy completion chunks: one chunk per choice delta with text, the finish reason when it
 * comes, and the usage chunk (empty `choices`) at the end. With `echo`, each choice's first chunk is the prompt.
 */
export function createTextCompletionStream(identity: TextCompletionIdentity): {
  convertChunk: (chunk: ChatChunk) => TextCompletion[];
} {
  const echoed = new Set<number>();
  return {
    convertChunk: (chunk) => {
      const base = { id: identity.id, object: 'text_completion' as const, created: chunk.created, model: chunk.model };
      const converted: TextCompletion[] = [];
      for (const choice of chunk.choices) {
        let text = choice.delta.content ?? choice.delta.refusal ?? '';
        if (identity.echoedPrompt !== undefined && !echoed.has(choice.index)) {
          echoed.add(choice.index);
          text = identity.echoedPrompt + text;
        }
        const finishReason = choice.finish_reason === null ? null : mapFinishReason(choice.finish_reason);
        if (text === '' && finishReason === null) continue;
        converted.push({
          ...base,
          choices: [{ text, index: choice.index, logprobs: null, finish_reason: finishReason }],
        });
      }
      if (chunk.usage && identity.isUsageRequested === true)
        converted.push({ ...base, choices: [], usage: convertUsage(chunk.usage) });
      return converted;
    },
  };
}

/** A tool call cannot happen here (no tools are sent); a content filter keeps its name. */
function mapFinishReason(reason: FinishReason): 'stop' | 'length' | 'content_filter' {
  if (reason === 'length' || reason === 'content_filter') return reason;
  return 'stop';
}

function convertUsage(usage: Usage): NonNullable<TextCompletion['usage']> {
  return {
    prompt_tokens: usage.prompt_tokens,
    completion_tokens: usage.completion_tokens,
    total_tokens: usage.total_tokens,
    ...(usage.cost === undefined ? {} : { cost: usage.cost }),
  };
}
