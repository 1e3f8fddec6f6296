import { createSimError, type SimError } from '../shared/sim-error.ts';
import type { MessagesMessage, MessagesRequest } from './messages-request-schema.ts';

const thinkingDocs =
  'Please consult our documentation at https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/**
 * Anthropic's semantic 400s (docs/reference/anthropic.md §Request, docs/reference/openai.md §Streaming): temperature range, thinking limits, and every `tool_use`
 * answered by a `tool_result` in the next (merged) user turn.
 */
export function checkMessagesRequest(
  request: MessagesRequest,
  messages: readonly MessagesMessage[],
): SimError | undefined {
  if (request.temperature !== undefined && (request.temperature < 0 || request.temperature > 1)) {
    return invalid('temperature: range: 0..1');
  }
  if (request.messages.length === 0) return invalid('messages: at least one message is required');
  const thinking = request.thinking;
  if (thinking?.type === 'enabled') {
    const budget = thinking.budget_tokens;
    if (budget === undefined) return invalid('thinking.enabled.budget_tokens: Field required');
    if (budget < 1024) return invalid('thinking.enabled.budget_tokens: Input should be greater than or equal to 1024');
    if (request.max_tokens <= budget) {
      return invalid(
        `\`max_tokens\` must be greater than \`thinking.budget_tokens\`. ${thinkingDocs}#max-tokens-and-context-window-size`,
      );
    }
    if (request.temperature !== undefined && request.temperature !== 1) {
      return invalid(
        `\`temperature\` may only be set to 1 when thinking is enabled. ${thinkingDocs}#feature-compatibility`,
      );
    }
    if (request.tool_choice?.type === 'any' || request.tool_choice?.type === 'tool') {
      return invalid('Thinking may not be enabled when tool_choice forces tool use.');
    }
  }
  const toolNames = new Set((request.tools ?? []).map((tool) => tool.name));
  if (request.tool_choice?.type === 'tool' && !toolNames.has(request.tool_choice.name ?? '')) {
    return invalid(`tool_choice.name: Tool '${request.tool_choice.name ?? ''}' not found in tools`);
  }
  return checkToolResults(messages);
}

function checkToolResults(messages: readonly MessagesMessage[]): SimError | undefined {
  for (const [index, message] of messages.entries()) {
    const blocks = typeof message.content === 'string' ? [] : message.content;
    const previous = messages[index - 1];
    const previousToolUseIds =
      previous?.role === 'assistant' && typeof previous.content !== 'string'
        ? previous.content.filter((block) => block.type === 'tool_use').map((block) => block.id ?? '')
        : [];
    const resultIds = blocks.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id ?? '');
    const unexpected = resultIds.filter((id) => !previousToolUseIds.includes(id));
    if (message.role === 'user' && unexpected.length > 0) {
      return invalid(
        `messages.${index}.content.0: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${unexpected.join(', ')}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
      );
    }
    const toolUseIds =
      message.role === 'assistant'
        ? blocks.filter((block) => block.type === 'tool_use').map((block) => block.id ?? '')
        : [];
    const next = messages[index + 1];
    if (toolUseIds.length === 0 || !next) continue;
    const nextResultIds =
      typeof next.content === 'string'
        ? []
        : next.content.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id);
    const unanswered = toolUseIds.filter((id) => !nextResultIds.includes(id));
    if (unanswered.length > 0) {
      return invalid(
        `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${unanswered.join(', ')}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`,
      );
    }
  }
  return undefined;
}

function invalid(message: string): SimError {
  return createSimError(400, message);
}
