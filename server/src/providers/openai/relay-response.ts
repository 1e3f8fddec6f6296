import type { Usage } from '../../openai-api/chat-completion.ts';
import type { RelayedCompletion } from '../provider-adapter.ts';
import { parseBodyText } from '../shared/parse-error-body.ts';
import { convertOpenAiUsage } from './convert-usage.ts';
import { openAiUsageSchema } from './openai-api.ts';
import { replacedFields, scanOpenAiAnswer, type ScannedOpenAiAnswer } from './scan-openai-answer.ts';

/**
 * An OpenAI answer the gateway can forward as sent: one whose every field `convertResponse` reads is already in the
 * form it would produce (`scanOpenAiAnswer`: an index per choice, text or a tool call, one of OpenAI's finish
 * reasons, tool calls with their ids, no log probabilities, usage of numbers), so the only changes are the replaced
 * `id`, `created`, `model` and `usage`. The answer is read from its text without building it; only its usage is
 * parsed. Anything else (an error body, a missing field, a tool call answered with `stop`, malformed JSON) returns
 * undefined and goes through `convertResponse`, which normalises it or refuses it as before; so do answers with
 * annotations (citations, which chat completions do not carry). Fields the gateway does not read (`service_tier`, a
 * message's empty `annotations`) reach the client as OpenAI sent them.
 * @see https://platform.openai.com/docs/api-reference/chat/object
 */
export function relayOpenAiResponse(input: {
  text: string;
  requestedModel: string;
  createdUnixSeconds: number;
  id: string;
}): RelayedCompletion | undefined {
  const scanned = scanOpenAiAnswer(input.text);
  if (scanned === undefined) return undefined;
  const usage = readUsage(scanned.usageText);
  if (usage === null) return undefined;
  const identity = [JSON.stringify(input.id), String(input.createdUnixSeconds), JSON.stringify(input.requestedModel)];
  return {
    usage,
    textBytes: scanned.textBytes,
    render: (billedUsage) => render(scanned, [...identity, JSON.stringify(billedUsage)]),
  };
}

/** The usage as `convertResponse` reads it; undefined when absent, null when it is not usage. */
function readUsage(usageText: string | undefined): Usage | undefined | null {
  if (usageText === undefined) return undefined;
  const parsed = openAiUsageSchema.safeParse(parseBodyText(usageText));
  return parsed.success ? convertOpenAiUsage(parsed.data) : null;
}

/**
 * The answer's text with the replaced fields' values (JSON texts, in `replacedFields` order) put in; a field the
 * answer lacks is added before its closing brace. Everything else is copied as OpenAI wrote it.
 */
function render(scanned: ScannedOpenAiAnswer, values: readonly string[]): string {
  const { text } = scanned;
  let out = '';
  let copiedTo = 0;
  let present = 0;
  for (const span of scanned.spans) {
    out += text.slice(copiedTo, span.start) + values[span.field];
    copiedTo = span.end;
    present |= 1 << span.field;
  }
  let added = '';
  for (const [field, name] of replacedFields.entries()) {
    if ((present & (1 << field)) !== 0) continue;
    added += `${scanned.hasFields || added !== '' ? ',' : ''}"${name}":${values[field]}`;
  }
  return out + text.slice(copiedTo, scanned.closeAt) + added + text.slice(scanned.closeAt);
}
