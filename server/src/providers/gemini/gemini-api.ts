import { z } from 'zod';

/** Gemini generateContent wire shapes (docs/reference/gemini.md): camelCase JSON; proto3 omits zero and default values. */

export type GeminiPart =
  | { text: string }
  | { inlineData: { mimeType: string; data: string } }
  | { fileData: { fileUri: string; mimeType?: string } }
  | { functionCall: { name: string; args: Record<string, unknown>; id?: string }; thoughtSignature?: string }
  | { functionResponse: { name: string; response: { output: string }; id?: string } };
export type GeminiContent = { role: 'user' | 'model'; parts: GeminiPart[] };

export type GeminiFunctionDeclaration = {
  name: string;
  description?: string;
  parametersJsonSchema?: Record<string, unknown>;
};
export type GeminiToolConfig = {
  functionCallingConfig: { mode: 'AUTO' | 'ANY' | 'NONE'; allowedFunctionNames?: string[] };
};
export type GeminiGenerationConfig = {
  temperature?: number;
  topP?: number;
  maxOutputTokens?: number;
  stopSequences?: string[];
  seed?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseMimeType?: string;
  responseJsonSchema?: Record<string, unknown>;
  thinkingConfig?: { thinkingBudget: number; includeThoughts?: boolean };
};
export type GeminiRequest = {
  contents: GeminiContent[];
  systemInstruction?: { parts: Array<{ text: string }> };
  tools?: Array<{ functionDeclarations: GeminiFunctionDeclaration[] }>;
  toolConfig?: GeminiToolConfig;
  generationConfig?: GeminiGenerationConfig;
};

const count = z.number().nullish();

export const geminiUsageSchema = z
  .object({
    promptTokenCount: count,
    candidatesTokenCount: count,
    thoughtsTokenCount: count,
    toolUsePromptTokenCount: count,
    cachedContentTokenCount: count,
    totalTokenCount: count,
  })
  .loose();

const partSchema = z
  .object({
    text: z.string().nullish(),
    thought: z.boolean().nullish(),
    thoughtSignature: z.string().nullish(),
    functionCall: z
      .object({ id: z.string().nullish(), name: z.string(), args: z.record(z.string(), z.unknown()).nullish() })
      .loose()
      .nullish(),
  })
  .loose();

export const geminiResponseSchema = z
  .object({
    candidates: z
      .array(
        z
          .object({
            content: z
              .object({ parts: z.array(partSchema).nullish() })
              .loose()
              .nullish(),
            finishReason: z.string().nullish(),
            index: z.number().int().nonnegative().nullish(),
          })
          .loose(),
      )
      .nullish(),
    promptFeedback: z.object({ blockReason: z.string().nullish() }).loose().nullish(),
    usageMetadata: geminiUsageSchema.nullish(),
    responseId: z.string().nullish(),
  })
  .loose();

/** Google RPC error details: RetryInfo, ErrorInfo (reason `API_KEY_INVALID`), BadRequest field violations. */
const errorDetailSchema = z
  .object({
    '@type': z.string().nullish(),
    retryDelay: z.string().nullish(),
    reason: z.string().nullish(),
    fieldViolations: z.array(z.object({ field: z.string().nullish() }).loose()).nullish(),
  })
  .loose();

export const geminiErrorSchema = z.object({
  error: z
    .object({
      code: z.number().int().nullish(),
      message: z.string(),
      status: z.string().nullish(),
      details: z.array(errorDetailSchema).nullish(),
    })
    .loose(),
});

export type GeminiUsage = z.infer<typeof geminiUsageSchema>;
export type GeminiResponse = z.infer<typeof geminiResponseSchema>;
export type GeminiCandidate = NonNullable<GeminiResponse['candidates']>[number];
export type GeminiResponsePart = z.infer<typeof partSchema>;
export type GeminiError = z.infer<typeof geminiErrorSchema>['error'];
