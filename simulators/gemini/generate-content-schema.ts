import { z } from 'zod';

const partSchema = z.looseObject({
  text: z.string().optional(),
  thought: z.boolean().optional(),
  thoughtSignature: z.string().optional(),
  // Inner fields may arrive in snake_case (`mime_type`), which proto3 JSON also accepts.
  inlineData: z.looseObject({}).optional(),
  fileData: z.looseObject({}).optional(),
  functionCall: z.looseObject({ id: z.string().optional(), name: z.string(), args: z.unknown().optional() }).optional(),
  functionResponse: z
    .looseObject({ id: z.string().optional(), name: z.string().optional(), response: z.unknown().optional() })
    .optional(),
});

const contentSchema = z.looseObject({ role: z.string().optional(), parts: z.array(partSchema).optional() });

/** Gemini `GenerateContentRequest` in REST camelCase (docs/reference/gemini.md §Request). */
export const generateContentSchema = z.looseObject({
  contents: z.array(contentSchema).optional(),
  systemInstruction: contentSchema.optional(),
  tools: z
    .array(
      z.looseObject({
        functionDeclarations: z
          .array(
            z.looseObject({
              name: z.string(),
              description: z.string().optional(),
              parameters: z.unknown().optional(),
              parametersJsonSchema: z.unknown().optional(),
            }),
          )
          .optional(),
        googleSearch: z.looseObject({}).optional(),
        googleSearchRetrieval: z.looseObject({}).optional(),
      }),
    )
    .optional(),
  toolConfig: z
    .looseObject({
      functionCallingConfig: z
        .looseObject({ mode: z.string().optional(), allowedFunctionNames: z.array(z.string()).optional() })
        .optional(),
    })
    .optional(),
  generationConfig: z
    .looseObject({
      maxOutputTokens: z.number().int().optional(),
      stopSequences: z.array(z.string()).optional(),
      responseMimeType: z.string().optional(),
      responseSchema: z.unknown().optional(),
      responseJsonSchema: z.unknown().optional(),
      temperature: z.number().min(0).max(2).optional(),
      candidateCount: z.number().int().optional(),
      thinkingConfig: z
        .looseObject({
          thinkingBudget: z.number().int().optional(),
          thinkingLevel: z.string().optional(),
          includeThoughts: z.boolean().optional(),
        })
        .optional(),
    })
    .optional(),
});

export type GenerateContentRequest = z.infer<typeof generateContentSchema>;
export type GeminiContent = z.infer<typeof contentSchema>;
export type GeminiPart = z.infer<typeof partSchema>;
