/**
 * The `tool_use` id a client sees for a chat tool-call id: Anthropic's `toolu_` prefix added when missing. Clients
 * send it back unchanged in `tool_use` and `tool_result` blocks, and it is forwarded as it is: vendors only need the
 * call and its result to carry the same id, and a signature suffix (`__sig_…`, docs/chat-parameters.md) survives.
 */
export function toToolUseId(toolCallId: string): string {
  return toolCallId.startsWith('toolu_') ? toolCallId : `toolu_${toolCallId}`;
}
