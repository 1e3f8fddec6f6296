import type { ChatProviderId } from '../provider-id.ts';
import type { ProviderAdapter } from '../provider-adapter.ts';
import type { DialectQuirks } from '../openai/dialect-quirks.ts';
import { createOpenAiDialectAdapter } from '../openai/openai-adapter.ts';
import { deepSeekQuirks } from './quirks/deepseek.ts';
import { groqQuirks } from './quirks/groq.ts';
import { llamaCppQuirks } from './quirks/llamacpp.ts';
import { mistralQuirks } from './quirks/mistral.ts';
import { ollamaQuirks } from './quirks/ollama.ts';
import { openRouterQuirks } from './quirks/openrouter.ts';
import { togetherQuirks } from './quirks/together.ts';
import { vllmQuirks } from './quirks/vllm.ts';
import { xaiQuirks } from './quirks/xai.ts';

/** Provider types served by this adapter: every vendor that speaks OpenAI's dialect, apart from OpenAI itself. */
export type CompatibleVendorId = Exclude<ChatProviderId, 'openai' | 'anthropic' | 'gemini' | 'azure' | 'vertex'>;

export const compatibleVendorQuirks = {
  deepseek: deepSeekQuirks,
  mistral: mistralQuirks,
  xai: xaiQuirks,
  groq: groqQuirks,
  together: togetherQuirks,
  openrouter: openRouterQuirks,
  vllm: vllmQuirks,
  ollama: ollamaQuirks,
  llamacpp: llamaCppQuirks,
} as const satisfies Record<CompatibleVendorId, DialectQuirks>;

/** The OpenAI-dialect adapter with one vendor's quirk hooks; base URLs are the vendor's `/v1` root. */
export function createOpenAiCompatibleAdapter(id: CompatibleVendorId): ProviderAdapter {
  return createOpenAiDialectAdapter(id, compatibleVendorQuirks[id]);
}
