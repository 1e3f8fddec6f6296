import { parseVendorBody } from '../shared/parse-vendor-body.ts';
import {
  anthropicKnownBlockSchema,
  anthropicKnownBlockTypes,
  anthropicKnownDeltaSchema,
  anthropicKnownDeltaTypes,
  type AnthropicKnownBlock,
  type AnthropicKnownDelta,
} from './anthropic-api.ts';

/**
 * A content block or delta the gateway converts, schema-checked; undefined for the types it skips (server tool use,
 * web search results, redacted thinking, citations), which would only matter for tools the gateway never sends.
 */
export function readKnownBlock(block: { type: string }): AnthropicKnownBlock | undefined {
  if (!anthropicKnownBlockTypes.includes(block.type)) return undefined;
  return parseVendorBody(anthropicKnownBlockSchema, block, 'Anthropic');
}

export function readKnownDelta(delta: { type: string }): AnthropicKnownDelta | undefined {
  if (!anthropicKnownDeltaTypes.includes(delta.type)) return undefined;
  return parseVendorBody(anthropicKnownDeltaSchema, delta, 'Anthropic');
}
