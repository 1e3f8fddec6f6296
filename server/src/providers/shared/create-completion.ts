import type {
  AssistantMessage,
  ChatCompletion,
  ChoiceLogprobs,
  FinishReason,
  ToolCall,
  Usage,
} from '../../openai-api/chat-completion.ts';

/** One answer choice as every vendor converter sees it, before OpenAI's shape is applied. */
export type CompletionChoice = {
  index: number;
  text: string;
  refusal?: string | undefined;
  reasoning?: string | undefined;
  toolCalls: ToolCall[];
  logprobs?: ChoiceLogprobs | null | undefined;
  finishReason: FinishReason;
};

/** The OpenAI `chat.completion` object (docs/reference/openai.md §Chat Completions), whose `model` is always the model the client asked for. */
export function createCompletion(input: {
  id: string;
  created: number;
  model: string;
  choices: CompletionChoice[];
  usage: Usage | undefined;
  systemFingerprint?: string | undefined;
}): ChatCompletion {
  return {
    id: input.id,
    object: 'chat.completion',
    created: input.created,
    model: input.model,
    choices: input.choices.map((choice) => ({
      index: choice.index,
      message: createAssistantMessage(choice),
      finish_reason: choice.finishReason,
      logprobs: choice.logprobs ?? null,
    })),
    ...(input.usage === undefined ? {} : { usage: input.usage }),
    ...(input.systemFingerprint === undefined ? {} : { system_fingerprint: input.systemFingerprint }),
  };
}

/** OpenAI sends `content: null` on a tool-call-only answer, and `""` for an empty text answer. */
function createAssistantMessage(choice: CompletionChoice): AssistantMessage {
  const hasToolCalls = choice.toolCalls.length > 0;
  const message: AssistantMessage = {
    role: 'assistant',
    content: choice.text === '' && hasToolCalls ? null : choice.text,
    refusal: choice.refusal ?? null,
  };
  if (hasToolCalls) message.tool_calls = choice.toolCalls;
  if (choice.reasoning !== undefined && choice.reasoning !== '') message.reasoning_content = choice.reasoning;
  return message;
}
