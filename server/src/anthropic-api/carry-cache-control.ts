/**
 * An Anthropic block's or tool's prompt-cache breakpoint, carried onto the chat part or tool made from it as the same
 * `cache_control` field: the Anthropic adapter forwards it, OpenRouter takes it, and the adapters of vendors that
 * cache on their own (or reject the field) leave it out (docs/messages.md).
 */
export function carryCacheControl(holder: object): { cache_control?: unknown } {
  const value = 'cache_control' in holder ? holder.cache_control : undefined;
  return value === undefined || value === null ? {} : { cache_control: value };
}
