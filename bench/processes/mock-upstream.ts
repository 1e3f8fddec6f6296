import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { parseMockMode, type MockMode } from '../mock-mode.ts';

/**
 * A mock OpenAI-compatible upstream for the benchmark. What it answers is set out of band (`PUT /__bench/mode`), so
 * any gateway pointed at it with one route sees every scenario without per-scenario configuration.
 * Run: `node bench/processes/mock-upstream.ts [port]`; prints `listening <url>` once ready.
 */
let mode: MockMode = { delayMs: 0, chunkCount: 64, chunkIntervalMs: 20 };
let requestCount = 0;

const server = createServer((request, response) => {
  if (request.url === '/__bench/mode' && request.method === 'PUT') return setMode(request, response);
  if (request.url === '/__bench/stats') return sendJson(response, { requestCount });
  if (request.method !== 'POST' || !request.url?.endsWith('/chat/completions')) {
    return sendJson(response, { error: { message: 'not found', type: 'invalid_request_error' } }, 404);
  }
  requestCount += 1;
  readBody(request).then(
    (text) => answer(text, response),
    () => response.destroy(),
  );
});
server.keepAliveTimeout = 120_000;

function answer(text: string, response: ServerResponse): void {
  const body = JSON.parse(text) as { model?: string; stream?: boolean; stream_options?: { include_usage?: boolean } };
  const model = body.model ?? 'mock';
  const current = mode;
  if (body.stream === true) {
    streamAnswer(response, { model, mode: current, includeUsage: body.stream_options?.include_usage === true });
    return;
  }
  const send = () => sendJson(response, completion(model));
  if (current.delayMs === 0) send();
  else setTimeout(send, current.delayMs);
}

function streamAnswer(response: ServerResponse, input: { model: string; mode: MockMode; includeUsage: boolean }) {
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const base = { id: 'chatcmpl-mock', object: 'chat.completion.chunk', created: 1_700_000_000, model: input.model };
  let sent = 0;
  const writeNext = () => {
    if (response.destroyed) return;
    const delta = sent === 0 ? { role: 'assistant', content: 'tok ' } : { content: 'tok ' };
    sent += 1;
    const isLast = sent === input.mode.chunkCount;
    const choice = { index: 0, delta, finish_reason: isLast ? 'stop' : null };
    response.write(`data: ${JSON.stringify({ ...base, choices: [choice] })}\n\n`);
    if (!isLast) {
      setTimeout(writeNext, input.mode.chunkIntervalMs);
      return;
    }
    if (input.includeUsage) {
      const usage = { prompt_tokens: 12, completion_tokens: input.mode.chunkCount, total_tokens: 12 + sent };
      response.write(`data: ${JSON.stringify({ ...base, choices: [], usage })}\n\n`);
    }
    response.end('data: [DONE]\n\n');
  };
  writeNext();
}

function completion(model: string) {
  return {
    id: 'chatcmpl-mock',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [
      {
        index: 0,
        message: { role: 'assistant', content: 'The quick brown fox jumps over the lazy dog.' },
        finish_reason: 'stop',
      },
    ],
    usage: { prompt_tokens: 12, completion_tokens: 10, total_tokens: 22 },
  };
}

function setMode(request: IncomingMessage, response: ServerResponse): void {
  readBody(request).then(
    (text) => {
      mode = parseMockMode(JSON.parse(text));
      sendJson(response, mode);
    },
    () => response.destroy(),
  );
}

async function readBody(request: IncomingMessage): Promise<string> {
  let text = '';
  for await (const piece of request) text += String(piece);
  return text;
}

function sendJson(response: ServerResponse, value: unknown, status = 200): void {
  const text = JSON.stringify(value);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
  const address = server.address();
  if (typeof address === 'object' && address) process.stdout.write(`listening http://127.0.0.1:${address.port}\n`);
});
