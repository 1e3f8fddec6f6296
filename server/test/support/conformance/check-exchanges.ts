import type { OpenAiSchemaName, OpenApiSchemaValidator } from '../openapi-schema-validator.ts';
import type { RecordedExchange } from './recording-proxy.ts';

export type ExchangeReport = {
  /** Bodies and stream chunks checked against an OpenAI schema, by schema name. */
  checked: Partial<Record<OpenAiSchemaName, number>>;
  /** Responses of `/v1/messages` (Anthropic's API, outside the OpenAI spec): checked for Anthropic's envelope only. */
  anthropicMessages: number;
  /** Answers of the OpenRouter-style key and credit endpoints, outside the OpenAI spec: their errors are checked. */
  extensions: number;
  statuses: number[];
  problems: string[];
};

/** The gateway's OpenRouter-compatible endpoints under /v1 (docs/api.md): no OpenAI schema describes their answers. */
const extensionRoutes = new Set(['/v1/key', '/v1/auth/key', '/v1/credits']);

/**
 * Checks every response body and stream event the gateway sent against the OpenAI OpenAPI schemas (Anthropic's
 * envelope for `/v1/messages`). Of a partial exchange (the client left, or the recording was cut), the whole events
 * of a stream are checked, and nothing of a JSON body.
 */
export function checkExchanges(
  validator: OpenApiSchemaValidator,
  exchanges: readonly RecordedExchange[],
): ExchangeReport {
  const report: ExchangeReport = { checked: {}, anthropicMessages: 0, extensions: 0, statuses: [], problems: [] };
  const check = (exchange: RecordedExchange, name: OpenAiSchemaName, text: string) => {
    report.checked[name] = (report.checked[name] ?? 0) + 1;
    const where = `${exchange.method} ${exchange.path} → ${exchange.status}`;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      report.problems.push(`${where}: not JSON: ${text.slice(0, 200)}`);
      return;
    }
    for (const problem of validator.problemsOf(name, value)) report.problems.push(`${where}: ${problem}`);
  };
  for (const exchange of exchanges) {
    report.statuses.push(exchange.status);
    const route = exchange.path.split('?')[0] ?? '';
    const isStream = exchange.contentType.startsWith('text/event-stream');
    // A HEAD answer has no body by definition; a JSON body cut short cannot be parsed.
    if (exchange.method === 'HEAD' || (exchange.isPartial === true && !isStream)) continue;
    // A CORS preflight's answer is headers only; a refused one is an error body, checked below.
    if (exchange.method === 'OPTIONS' && exchange.status < 400) continue;
    if (route === '/v1/messages' || route.startsWith('/v1/messages/')) {
      report.anthropicMessages += 1;
      report.problems.push(...problemsOfAnthropicExchange(exchange));
    } else if (exchange.status >= 400) {
      check(exchange, 'ErrorResponse', exchange.body);
    } else if (extensionRoutes.has(route)) {
      report.extensions += 1;
    } else if (route === '/v1/models') {
      check(exchange, 'ListModelsResponse', exchange.body);
    } else if (route.startsWith('/v1/models/')) {
      check(exchange, 'Model', exchange.body);
    } else if (route === '/v1/chat/completions' && isStream) {
      checkStream(exchange, check, report.problems);
      report.problems.push(
        ...problemsOfIdentity(
          exchange,
          sseEvents(exchange).map((event) => event.data),
        ),
      );
    } else if (route === '/v1/chat/completions') {
      check(exchange, 'CreateChatCompletionResponse', exchange.body);
      report.problems.push(...problemsOfIdentity(exchange, [exchange.body]));
    } else if (route === '/v1/responses' && isStream) {
      report.problems.push(...problemsOfResponseStream(exchange, check));
    } else if (route === '/v1/responses') {
      check(exchange, 'Response', exchange.body);
      report.problems.push(...problemsOfIdentity(exchange, [exchange.body]));
    } else if (route.startsWith('/v1/responses/')) {
      check(exchange, 'Response', exchange.body);
    } else if (route === '/v1/completions' && isStream) {
      const chunks = sseEvents(exchange)
        .map((event) => event.data)
        .filter((data) => data !== '[DONE]');
      for (const chunk of chunks) check(exchange, 'CreateCompletionResponse', withStreamFinishReasons(chunk));
      report.problems.push(...problemsOfIdentity(exchange, chunks));
    } else if (route === '/v1/completions') {
      check(exchange, 'CreateCompletionResponse', exchange.body);
      report.problems.push(...problemsOfIdentity(exchange, [exchange.body]));
    } else if (route === '/v1/embeddings') {
      check(exchange, 'CreateEmbeddingResponse', decodeBase64Embeddings(exchange.body));
      report.problems.push(...problemsOfIdentity(exchange, [exchange.body]));
    } else if (route === '/v1/images/generations') {
      check(exchange, 'ImagesResponse', exchange.body);
    } else {
      report.problems.push(`${exchange.method} ${exchange.path}: no schema for this endpoint`);
    }
  }
  return report;
}

/** Beyond the schema: the `model` of the answer and of every chunk is the model requested, and a stream has one id. */
function problemsOfIdentity(exchange: RecordedExchange, bodies: readonly string[]): string[] {
  const requested = (parseJsonObject(exchange.requestBody) as { model?: unknown } | undefined)?.model;
  type Answer = { id?: unknown; model?: unknown; error?: unknown };
  const objects = bodies
    .map((body) => parseJsonObject(body) as Answer | undefined)
    .filter((object): object is Answer => object !== undefined && !object.error);
  const problems = objects
    .filter((object) => object.model !== requested)
    .map(
      (object) => `${exchange.path}: model ${String(object.model)} in the answer to a request for ${String(requested)}`,
    );
  if (new Set(objects.map((object) => object.id)).size > 1) problems.push(`${exchange.path}: chunks with several ids`);
  return problems;
}

/**
 * The data of each SSE event, per the HTML spec's event-stream format: events end at a blank line. Of a partial
 * exchange, an event the recording cut short is left out.
 */
function sseEvents(exchange: RecordedExchange): Array<{ name: string | undefined; data: string }> {
  const pieces = exchange.body.split(/\r?\n\r?\n/);
  // The text after the last blank line is an unfinished event (empty when the body ends with one).
  const whole = exchange.isPartial === true ? pieces.slice(0, -1) : pieces;
  return whole
    .map((event) => {
      const lines = event.split(/\r?\n/);
      const name = lines
        .find((line) => line.startsWith('event:'))
        ?.slice('event:'.length)
        .trim();
      const data = lines
        .filter((line) => line.startsWith('data:'))
        .map((line) => line.slice('data:'.length).replace(/^ /, ''))
        .join('\n');
      return { name, data };
    })
    .filter((event) => event.data !== '');
}

const anthropicEventTypes = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
  'error',
]);

/**
 * Anthropic's envelope (no OpenAPI file of Anthropic's is at hand): a `message` or an `error` object as JSON, or named
 * stream events whose `event:` equals the data's `type`, ending with `message_stop` or `error`.
 */
function problemsOfAnthropicExchange(exchange: RecordedExchange): string[] {
  const where = `${exchange.method} ${exchange.path} → ${exchange.status}`;
  const typeOf = (text: string): unknown => (parseJsonObject(text) as { type?: unknown } | undefined)?.type;
  if (!exchange.contentType.startsWith('text/event-stream')) {
    if (exchange.status < 400 && exchange.path.split('?')[0] === '/v1/messages/count_tokens') {
      const count = (parseJsonObject(exchange.body) as { input_tokens?: unknown } | undefined)?.input_tokens;
      return Number.isInteger(count) ? [] : [`${where}: not a token count: ${exchange.body.slice(0, 200)}`];
    }
    const expected = exchange.status >= 400 ? 'error' : 'message';
    return typeOf(exchange.body) === expected
      ? []
      : [`${where}: not an Anthropic ${expected}: ${exchange.body.slice(0, 200)}`];
  }
  const events = sseEvents(exchange);
  const problems = events
    .filter((event) => !anthropicEventTypes.has(event.name ?? '') || typeOf(event.data) !== event.name)
    .map((event) => `${where}: event ${event.name ?? '(unnamed)'} with data ${event.data.slice(0, 200)}`);
  const lastName = events.at(-1)?.name;
  const isEnded = lastName === 'message_stop' || lastName === 'error';
  if (!isEnded && exchange.isPartial !== true) problems.push(`${where}: the stream ends with ${lastName}`);
  return problems;
}

const terminalResponseEvents = new Set(['response.completed', 'response.incomplete', 'response.failed']);

/**
 * A Responses stream (docs/reference/openai.md §Responses): every event named (`event:` equal to the data's `type`) and valid
 * against `ResponseStreamEvent`, `sequence_number` counting from 0, `response.created` first with an empty output,
 * a terminal event last, no `[DONE]`; every Response in it carries the requested model and one id.
 */
function problemsOfResponseStream(
  exchange: RecordedExchange,
  check: (exchange: RecordedExchange, name: OpenAiSchemaName, text: string) => void,
): string[] {
  const where = `${exchange.method} ${exchange.path} → ${exchange.status}`;
  const events = sseEvents(exchange);
  if (events.length === 0 && exchange.isPartial === true) return [];
  const problems: string[] = [];
  const responses: string[] = [];
  events.forEach((event, index) => {
    check(exchange, 'ResponseStreamEvent', event.data);
    const data = parseJsonObject(event.data) as { type?: unknown; sequence_number?: unknown; response?: unknown };
    if (data?.type !== event.name)
      problems.push(`${where}: event ${event.name ?? '(unnamed)'} with type ${String(data?.type)}`);
    if (data?.sequence_number !== index)
      problems.push(`${where}: event ${index} has sequence_number ${String(data?.sequence_number)}`);
    if (data?.response !== undefined) responses.push(JSON.stringify(data.response));
  });
  const [first] = events;
  const created = parseJsonObject(first?.data ?? '') as { type?: unknown; response?: { output?: unknown } } | undefined;
  if (created?.type !== 'response.created') problems.push(`${where}: the stream starts with ${String(created?.type)}`);
  else if (JSON.stringify(created.response?.output) !== '[]')
    problems.push(`${where}: response.created carries output`);
  if (!terminalResponseEvents.has(events.at(-1)?.name ?? '') && exchange.isPartial !== true) {
    problems.push(`${where}: the stream ends with ${events.at(-1)?.name ?? 'nothing'}`);
  }
  return [...problems, ...problemsOfIdentity(exchange, responses)];
}

function checkStream(
  exchange: RecordedExchange,
  check: (exchange: RecordedExchange, name: OpenAiSchemaName, text: string) => void,
  problems: string[],
): void {
  const events = sseEvents(exchange).map((event) => event.data);
  const last = events.at(-1);
  const endsWithError = last !== undefined && last.startsWith('{"error"');
  if (last !== '[DONE]' && !endsWithError && exchange.isPartial !== true) {
    problems.push(`${exchange.path}: the stream ends with neither [DONE] nor an error event`);
  }
  const chunks = last === '[DONE]' || endsWithError ? events.slice(0, -1) : events;
  for (const data of chunks) check(exchange, 'CreateChatCompletionStreamResponse', data);
  if (endsWithError) check(exchange, 'ErrorResponse', last);
}

/** A JSON object, or undefined for anything else (unparsable text is reported by the schema check). */
function parseJsonObject(text: string): object | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return typeof value === 'object' && value !== null ? value : undefined;
  } catch {
    return undefined;
  }
}

/**
 * OpenAI answers `encoding_format: "base64"` (the SDKs' default) with each embedding as a base64 string of float32
 * values, which its OpenAPI file does not describe: checked as the float list it encodes.
 */
function decodeBase64Embeddings(body: string): string {
  const value = parseJsonObject(body) as { data?: Array<{ embedding?: unknown }> } | undefined;
  if (!value || !Array.isArray(value.data)) return body;
  const data = value.data.map((item) => {
    if (typeof item.embedding !== 'string') return item;
    // Copied out of Node's shared pool, whose offsets need not be float-aligned.
    const bytes = new Uint8Array(Buffer.from(item.embedding, 'base64'));
    return { ...item, embedding: Array.from(new Float32Array(bytes.buffer)) };
  });
  return JSON.stringify({ ...value, data });
}

/**
 * A legacy completion stream's chunks carry `finish_reason: null` until a choice ends, as OpenAI sends them (its
 * streaming example), though the OpenAPI file types the field as the final value only: checked as if it had ended.
 */
function withStreamFinishReasons(chunk: string): string {
  const value = parseJsonObject(chunk) as { choices?: Array<{ finish_reason?: unknown }> } | undefined;
  if (!value || !Array.isArray(value.choices)) return chunk;
  const choices = value.choices.map((choice) =>
    choice.finish_reason === null ? { ...choice, finish_reason: 'stop' } : choice,
  );
  return JSON.stringify({ ...value, choices });
}
