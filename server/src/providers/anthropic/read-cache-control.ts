import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import type { AnthropicCacheControl } from './anthropic-api.ts';

/**
 * The `cache_control` a chat content part, tool or the request itself (`param` '') carries (Anthropic's prompt-cache breakpoint, which
 * chat clients send as an extension and `/v1/messages` carries over) → the same field on the Anthropic block, so
 * prompt caching works through the gateway. A malformed one is refused with a 400 naming it.
 * @see https://docs.anthropic.com/en/docs/build-with-claude/prompt-caching
 */
export function readCacheControl(holder: object, param: string): { cache_control?: AnthropicCacheControl } {
  const value = 'cache_control' in holder ? holder.cache_control : undefined;
  if (value === undefined || value === null) return {};
  if (typeof value === 'object' && 'type' in value && value.type === 'ephemeral') {
    const ttl = 'ttl' in value ? value.ttl : undefined;
    if (ttl === undefined || ttl === null) return { cache_control: { type: 'ephemeral' } };
    if (ttl === '5m') return { cache_control: { type: 'ephemeral', ttl } };
  }
  // One-hour writes cost Anthropic 2× the input rate, which the price list does not carry: refused, not under-billed.
  throw new InvalidRequestError('cache_control must be {"type": "ephemeral"}, optionally with "ttl": "5m".', {
    param: param === '' ? 'cache_control' : `${param}.cache_control`,
  });
}
