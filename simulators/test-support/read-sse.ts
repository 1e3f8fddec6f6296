/** One parsed server-sent event as a test sees it on the wire. */
export type WireEvent = { event: string | undefined; data: string };

export type SseRead = { events: WireEvent[]; comments: string[]; raw: string };

/** Reads a whole SSE body and splits it per the SSE rules (blank-line separated; `:` lines are comments). */
export async function readSse(response: Response): Promise<SseRead> {
  const raw = await response.text();
  const events: WireEvent[] = [];
  const comments: string[] = [];
  for (const block of raw.split(/\r?\n\r?\n/)) {
    if (block.trim() === '') continue;
    let event: string | undefined;
    const dataLines: string[] = [];
    for (const line of block.split(/\r?\n/)) {
      if (line.startsWith(':')) comments.push(line.slice(1).trim());
      else if (line.startsWith('event: ')) event = line.slice('event: '.length);
      else if (line.startsWith('data: ')) dataLines.push(line.slice('data: '.length));
    }
    if (dataLines.length > 0) events.push({ event, data: dataLines.join('\n') });
  }
  return { events, comments, raw };
}

/** The JSON payloads of the data events, skipping `[DONE]`. */
export function jsonPayloads(read: SseRead): Record<string, unknown>[] {
  return read.events
    .filter((event) => event.data !== '[DONE]')
    .map((event) => JSON.parse(event.data) as Record<string, unknown>);
}

export type PostInput = { body: unknown; headers?: Record<string, string> };

export function postJson(url: string, input: PostInput, signal?: AbortSignal): Promise<Response> {
  return fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...input.headers },
    body: typeof input.body === 'string' ? input.body : JSON.stringify(input.body),
    ...(signal ? { signal } : {}),
  });
}

export const bearer = { authorization: 'Bearer sk-test-key' } as const;
export const anthropicHeaders = { 'x-api-key': 'sk-ant-test', 'anthropic-version': '2023-06-01' } as const;
export const geminiHeaders = { 'x-goog-api-key': 'gemini-test-key' } as const;

export const weatherTool = {
  name: 'get_weather',
  description: 'Current weather',
  parameters: {
    type: 'object',
    properties: {
      city: { type: 'string', minLength: 2 },
      unit: { type: 'string', enum: ['celsius', 'fahrenheit'] },
      days: { type: 'integer', minimum: 1, maximum: 7 },
    },
    required: ['city', 'unit'],
    additionalProperties: false,
  },
} as const;

/** Checks arguments generated for `weatherTool`. */
export function isValidWeatherArguments(value: unknown): boolean {
  if (typeof value !== 'object' || value === null) return false;
  const record = value as Record<string, unknown>;
  const days = record['days'];
  return (
    typeof record['city'] === 'string' &&
    record['city'].length >= 2 &&
    (record['unit'] === 'celsius' || record['unit'] === 'fahrenheit') &&
    (days === undefined || (Number.isInteger(days) && (days as number) >= 1 && (days as number) <= 7)) &&
    Object.keys(record).every((key) => ['city', 'unit', 'days'].includes(key))
  );
}

/** Views a wire payload as the shape a test expects; the assertions that follow check it. */
export function asShape<Shape>(value: unknown): Shape {
  return value as Shape;
}
