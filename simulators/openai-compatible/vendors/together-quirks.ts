import { baseQuirks } from '../base-quirks.ts';
import type { DialectQuirks } from '../dialect-quirks.ts';

/** Together (docs/reference/openai-compatible-vendors.md): usage attached to the finish chunk, with no separate empty-`choices` chunk. */
export const togetherQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'together',
  modelIds: [
    'meta-llama/Llama-3.3-70B-Instruct-Turbo',
    'Qwen/Qwen3-235B-A22B-Instruct-2507-tput',
    'deepseek-ai/DeepSeek-V3',
    'BAAI/bge-large-en-v1.5',
  ],
  streamUsagePlacement: 'finish-chunk',
  isStreamUsageAlwaysSent: true,
};
