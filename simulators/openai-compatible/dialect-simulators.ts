import type { VendorSimulator } from '../shared/simulator-exchange.ts';
import { createDialectSimulator } from './create-dialect-simulator.ts';
import type { DialectVendor } from './dialect-quirks.ts';
import { deepseekQuirks } from './vendors/deepseek-quirks.ts';
import { groqQuirks } from './vendors/groq-quirks.ts';
import { llamaCppQuirks } from './vendors/llamacpp-quirks.ts';
import { mistralFimRoute } from './vendors/mistral-fim.ts';
import { mistralQuirks } from './vendors/mistral-quirks.ts';
import { ollamaQuirks } from './vendors/ollama-quirks.ts';
import { openRouterQuirks } from './vendors/openrouter-quirks.ts';
import { togetherQuirks } from './vendors/together-quirks.ts';
import { vllmQuirks } from './vendors/vllm-quirks.ts';
import { xaiQuirks } from './vendors/xai-quirks.ts';

/** The OpenAI-dialect vendors other than OpenAI itself (which adds its own routes in openai/). */
export const dialectSimulators = {
  deepseek: createDialectSimulator(deepseekQuirks),
  mistral: createDialectSimulator(mistralQuirks, [mistralFimRoute]),
  xai: createDialectSimulator(xaiQuirks),
  groq: createDialectSimulator(groqQuirks),
  together: createDialectSimulator(togetherQuirks),
  openrouter: createDialectSimulator(openRouterQuirks),
  vllm: createDialectSimulator(vllmQuirks),
  ollama: createDialectSimulator(ollamaQuirks),
  llamacpp: createDialectSimulator(llamaCppQuirks),
} as const satisfies Record<Exclude<DialectVendor, 'openai'>, VendorSimulator>;
