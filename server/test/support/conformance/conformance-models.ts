/** One model per vendor family of the seed catalogue, each served by a different upstream wire format or vendor. */
export type ConformanceModel = {
  family: string;
  id: string;
  /** The catalogue marks it as accepting images; DeepSeek, Qwen and Kimi have no vision model there. */
  vision: boolean;
};

export const conformanceModels: readonly ConformanceModel[] = [
  { family: 'OpenAI', id: 'gpt-4o', vision: true },
  { family: 'Anthropic', id: 'claude-sonnet-4-5', vision: true },
  { family: 'Google', id: 'gemini-2.5-flash', vision: true },
  { family: 'DeepSeek', id: 'deepseek-chat', vision: false },
  { family: 'xAI', id: 'grok-4-fast', vision: true },
  { family: 'Mistral', id: 'mistral-large-latest', vision: true },
  { family: 'Meta (Groq)', id: 'llama-4-maverick', vision: true },
  { family: 'Qwen (OpenRouter)', id: 'qwen3-max', vision: false },
  { family: 'Moonshot (Groq)', id: 'kimi-k2', vision: false },
];

/** A 1×1 PNG as a data URL, for image input. */
export const pixelPngDataUrl =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

/** The tool every SDK declares: one required string argument. */
export const weatherToolParameters = {
  type: 'object',
  properties: { city: { type: 'string' } },
  required: ['city'],
  additionalProperties: false,
} as const;

/** The `json_schema` every SDK asks for. */
export const citySchema = {
  type: 'object',
  properties: { name: { type: 'string' }, population: { type: 'integer' } },
  required: ['name', 'population'],
  additionalProperties: false,
} as const;

/** Keeps simulated answers short so that streams (paced per chunk in sandbox mode) stay quick. */
export const shortAnswer = '[sim:words=4]';
