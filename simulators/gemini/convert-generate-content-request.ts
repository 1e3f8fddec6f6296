import {
  countToolRounds,
  effortReasoningTokens,
  reasoningForEffort,
  type Conversation,
  type InputUnit,
  type LastTurn,
  type ReasoningRequest,
  type ToolChoice,
  type TurnKind,
} from '../shared/conversation.ts';
import type { GeminiContent, GeminiPart, GenerateContentRequest } from './generate-content-schema.ts';

export type ConvertedGeminiRequest = { conversation: Conversation; isIncludingThoughts: boolean };

const maximumThinkingTokens = 48;

export function convertGenerateContentRequest(request: GenerateContentRequest, model: string): ConvertedGeminiRequest {
  const contents = request.contents ?? [];
  const declarations = (request.tools ?? []).flatMap((tool) => tool.functionDeclarations ?? []);
  const units: InputUnit[] = [];
  if (request.tools && request.tools.length > 0)
    units.push({ text: JSON.stringify(request.tools), imageCount: 0, isMessage: false });
  if (request.systemInstruction) units.push(convertContentUnit(request.systemInstruction));
  units.push(...contents.map(convertContentUnit));
  const config = request.generationConfig;
  const lastUser = [...contents]
    .reverse()
    .find((content) => (content.role ?? 'user') === 'user' && contentText(content) !== '');
  const isJson = config?.responseMimeType === 'application/json';
  return {
    conversation: {
      model,
      units,
      lastTurn: findLastTurn(contents),
      toolRoundsInTurn: countToolRounds(contents.map(turnKind)),
      lastUserText: lastUser ? contentText(lastUser) : '',
      tools: declarations.map((declaration) => ({
        name: declaration.name,
        parametersSchema: declaration.parametersJsonSchema ?? declaration.parameters,
      })),
      toolChoice: convertToolChoice(request),
      canCallToolsInParallel: true,
      hasWebSearch: (request.tools ?? []).some(
        (tool) => tool.googleSearch !== undefined || tool.googleSearchRetrieval !== undefined,
      ),
      maxOutputTokens: config?.maxOutputTokens,
      reasoning: convertThinking(request, model),
      outputFormat: isJson
        ? { kind: 'json', schema: config?.responseJsonSchema ?? config?.responseSchema }
        : { kind: 'text' },
      stopSequences: config?.stopSequences ?? [],
    },
    isIncludingThoughts: config?.thinkingConfig?.includeThoughts === true,
  };
}

function convertContentUnit(content: GeminiContent): InputUnit {
  const parts = content.parts ?? [];
  return {
    text: parts.map(partText).filter(Boolean).join('\n'),
    imageCount: parts.filter((part) => part.inlineData !== undefined || part.fileData !== undefined).length,
    isMessage: true,
  };
}

function partText(part: GeminiPart): string {
  if (part.functionCall) return `${part.functionCall.name} ${JSON.stringify(part.functionCall.args ?? {})}`;
  if (part.functionResponse)
    return `${part.functionResponse.name ?? ''} ${JSON.stringify(part.functionResponse.response ?? {})}`;
  return part.text ?? '';
}

function contentText(content: GeminiContent): string {
  return (content.parts ?? [])
    .filter((part) => part.text !== undefined && part.thought !== true)
    .map((part) => part.text ?? '')
    .join('\n');
}

function findLastTurn(contents: readonly GeminiContent[]): LastTurn {
  const last = contents.at(-1);
  if (!last || last.role === 'model') return 'assistant';
  return (last.parts ?? []).some((part) => part.functionResponse) ? 'tool-result' : 'user';
}

function turnKind(content: GeminiContent): TurnKind {
  const parts = content.parts ?? [];
  if (content.role === 'model') return parts.some((part) => part.functionCall) ? 'tool-call' : 'other';
  return parts.some((part) => part.functionResponse) ? 'other' : 'user';
}

function convertToolChoice(request: GenerateContentRequest): ToolChoice {
  const config = request.toolConfig?.functionCallingConfig;
  const mode = config?.mode ?? 'AUTO';
  if (mode === 'NONE') return { kind: 'none' };
  const allowed = config?.allowedFunctionNames?.[0];
  if (allowed !== undefined) return { kind: 'named', name: allowed };
  return { kind: mode === 'ANY' ? 'required' : 'auto' };
}

/**
 * Gemini 2.5 Pro/Flash and Gemini 3 think by default (dynamic budget); Flash-Lite and older models only when asked.
 * A budget of 0 turns thinking off.
 */
function convertThinking(request: GenerateContentRequest, model: string): ReasoningRequest | undefined {
  const thinking = request.generationConfig?.thinkingConfig;
  if (thinking?.thinkingBudget === 0) return undefined;
  if (thinking?.thinkingLevel !== undefined) return reasoningForEffort(thinking.thinkingLevel.toLowerCase());
  if (thinking?.thinkingBudget !== undefined && thinking.thinkingBudget > 0) {
    return { targetTokens: Math.min(thinking.thinkingBudget, maximumThinkingTokens) };
  }
  const isThinkingModel = /gemini-(2\.5|3)/.test(model) && !model.includes('lite') && !model.includes('image');
  return isThinkingModel || thinking !== undefined ? { targetTokens: effortReasoningTokens.medium } : undefined;
}
