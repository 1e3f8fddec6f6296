import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { ChatRequest, ChatTool } from '../../openai-api/chat-request.ts';
import type { AnthropicTool, AnthropicToolChoice } from './anthropic-api.ts';
import { readCacheControl } from './read-cache-control.ts';

/**
 * OpenAI function tools → Anthropic custom tools; a tool without parameters takes an empty object, and a tool's
 * `cache_control` (a prompt-cache breakpoint after the tool definitions) is kept.
 * @see https://docs.anthropic.com/en/docs/agents-and-tools/tool-use/implement-tool-use
 */
export function convertTools(tools: readonly ChatTool[] | undefined): AnthropicTool[] | undefined {
  if (tools === undefined || tools.length === 0) return undefined;
  return tools.map((tool, index) => ({
    name: tool.function.name,
    ...(tool.function.description === undefined ? {} : { description: tool.function.description }),
    input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
    ...(tool.function.strict === true ? { strict: true } : {}),
    ...readCacheControl(tool, `tools[${index}]`),
  }));
}

/**
 * `tool_choice` and `parallel_tool_calls` → Anthropic's `tool_choice` ("required" is `any`, a named function is
 * `tool`; `parallel_tool_calls: false` is `disable_parallel_tool_use`). Without tools, only "none" and "auto" make
 * sense and are then omitted.
 */
export function convertToolChoice(request: ChatRequest): AnthropicToolChoice | undefined {
  const hasTools = (request.tools?.length ?? 0) > 0;
  const choice = request.tool_choice;
  if (!hasTools) {
    if (choice === undefined || choice === 'none' || choice === 'auto') return undefined;
    throw new InvalidRequestError('tool_choice requires tools.', { param: 'tool_choice' });
  }
  if (choice === 'none') return { type: 'none' };
  const parallel = request.parallel_tool_calls === false ? { disable_parallel_tool_use: true } : {};
  if (choice === undefined || choice === 'auto') {
    return request.parallel_tool_calls === false ? { type: 'auto', ...parallel } : undefined;
  }
  if (choice === 'required') return { type: 'any', ...parallel };
  return { type: 'tool', name: choice.function.name, ...parallel };
}
