import type { Conversation, ToolDefinition } from './conversation.ts';

/**
 * How a simulated model uses web search results that a caller (the gateway) hands it as numbered sources
 * (`[1] Title — https://…`, in a tool result or a system message): like a real model told to cite by number, it
 * restates the question in its first sentence (keeping the user's own characters, emoji included) and puts ` [n]`
 * after a few of its sentences, for the first sources in order. And a function tool named `web_search` with a `query`
 * parameter is called with the user's own words as the query, as a model would.
 */
const sourceHeaderPattern = /\[(\d{1,3})\] [^[\]\n]{0,400}? — https?:\/\//g;
const simDirectivePattern = /\[sim:[^\]]*\]/gi;
const wordsBetweenMarkers = 8;
const maxMarkers = 3;
const maxQuestionWords = 12;

/** The answer's tokens as a model that was given numbered sources writes them; unchanged when none were given. */
export function citeProvidedSources(tokens: readonly string[], conversation: Conversation): string[] {
  const numbers = findProvidedSourceNumbers(conversation);
  if (numbers.length === 0) return [...tokens];
  const question = readQuestion(conversation);
  if (question === '') return insertSourceMarkers(tokens, numbers);
  // Word tokens after the first carry their leading space, as the generated words do.
  const opening = question
    .split(' ')
    .slice(0, maxQuestionWords)
    .map((word, index) => (index === 0 ? word : ` ${word}`));
  const [first, ...rest] = tokens;
  return insertSourceMarkers([...opening, ...(first === undefined ? [] : [` ${first}`, ...rest])], numbers);
}

/** The source numbers offered in the request's input, in order of appearance, without repeats. */
function findProvidedSourceNumbers(conversation: Conversation): number[] {
  const numbers: number[] = [];
  for (const unit of conversation.units) {
    for (const match of unit.text.matchAll(sourceHeaderPattern)) {
      const number = Number(match[1]);
      if (!numbers.includes(number)) numbers.push(number);
    }
  }
  return numbers;
}

/** The answer's word tokens with ` [n]` tokens after every eighth word, citing up to three provided sources. */
function insertSourceMarkers(tokens: readonly string[], sourceNumbers: readonly number[]): string[] {
  if (sourceNumbers.length === 0) return [...tokens];
  const cited = sourceNumbers.slice(0, maxMarkers);
  const result: string[] = [];
  let markerCount = 0;
  tokens.forEach((token, index) => {
    result.push(token);
    const isSpanEnd = (index + 1) % wordsBetweenMarkers === 0 || index === tokens.length - 1;
    const number = cited[markerCount];
    if (isSpanEnd && number !== undefined) {
      result.push(` [${number}]`);
      markerCount += 1;
    }
  });
  return result;
}

/** Arguments for a `web_search(query)` function: the last user text without simulator directives. */
export function planSearchToolArguments(tool: ToolDefinition, conversation: Conversation): string | undefined {
  if (tool.name !== 'web_search' || !hasQueryParameter(tool.parametersSchema)) return undefined;
  const query = readQuestion(conversation);
  return query === '' ? undefined : JSON.stringify({ query });
}

function readQuestion(conversation: Conversation): string {
  return conversation.lastUserText.replace(simDirectivePattern, ' ').replace(/\s+/g, ' ').trim();
}

function hasQueryParameter(schema: unknown): boolean {
  if (typeof schema !== 'object' || schema === null || !('properties' in schema)) return false;
  const properties = schema.properties;
  return typeof properties === 'object' && properties !== null && 'query' in properties;
}
