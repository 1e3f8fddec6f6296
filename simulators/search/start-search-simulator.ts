import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readJsonBody } from '../shared/read-json-body.ts';
import { wait } from '../shared/wait.ts';
import type { SearchEngineId } from '../../server/src/search/search-engine.ts';
import type { EngineSimulator, SimulatedAnswer } from './engine-simulator.ts';
import { parseSearchDirectives } from './parse-search-directives.ts';
import { planSearchPages } from './plan-search-pages.ts';
import { braveSimulator } from './simulate-brave.ts';
import { exaSimulator } from './simulate-exa.ts';
import { searxngSimulator } from './simulate-searxng.ts';
import { tavilySimulator } from './simulate-tavily.ts';

export type SearchSimulatorOptions = { host?: string; port?: number };
export type RunningSearchSimulator = { url: string; close: () => Promise<void> };
export type SearchSimulatorStats = { requestsByEngine: Record<SearchEngineId, number>; totalRequests: number };

const simulators = {
  searxng: searxngSimulator,
  brave: braveSimulator,
  tavily: tavilySimulator,
  exa: exaSimulator,
} as const satisfies Record<SearchEngineId, EngineSimulator>;
const simulatedEngineIds = Object.keys(simulators) as SearchEngineId[];

/**
 * Starts the search engine simulator: one loopback HTTP server speaking SearXNG, Brave, Tavily and Exa under
 * `/searxng`, `/brave`, `/tavily` and `/exa` (use `${url}/brave` as Brave's base URL, and so on). Used by the tests and
 * by sandbox mode. `GET /_search-sim/stats` counts requests per engine; `POST /_search-sim/reset` clears the counts.
 * Queries are never logged or stored.
 */
export async function startSearchSimulator(options: SearchSimulatorOptions = {}): Promise<RunningSearchSimulator> {
  const stats = createStats();
  const closing = new AbortController();
  const server = createServer((request, response) => {
    void routeSearchRequest(request, response, { stats, closingSignal: closing.signal }).catch(() => {
      if (!response.headersSent) send(response, { status: 500, body: { error: 'The search simulator failed.' } });
      else response.destroy();
    });
  });
  await listen(server, { host: options.host ?? '127.0.0.1', port: options.port ?? 0 });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: async () => {
      closing.abort();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      await closed;
    },
  };
}

async function routeSearchRequest(
  request: IncomingMessage,
  response: ServerResponse,
  deps: { stats: SearchSimulatorStats; closingSignal: AbortSignal },
): Promise<void> {
  const url = new URL(request.url ?? '/', 'http://search-simulator.invalid');
  if (url.pathname.startsWith('/_search-sim/'))
    return handleTestApi(request, response, { path: url.pathname, ...deps });
  const match = /^\/([a-z]+)(\/.*)?$/.exec(url.pathname);
  const engine = simulatedEngineIds.find((id) => id === match?.[1]);
  const simulator = engine === undefined ? undefined : simulators[engine];
  if (engine === undefined || simulator === undefined || match?.[2] !== simulator.path) {
    request.resume();
    return send(response, { status: 404, body: { error: `No simulated search engine serves ${url.pathname}` } });
  }
  if (request.method !== simulator.method) {
    request.resume();
    return send(response, { status: 405, headers: { allow: simulator.method }, body: { error: 'Method not allowed' } });
  }
  deps.stats.requestsByEngine[engine] += 1;
  deps.stats.totalRequests += 1;
  const signal = AbortSignal.any([deps.closingSignal, closeSignal(response)]);
  send(response, await answerSearch(request, { simulator, query: url.searchParams, signal }), signal);
}

async function answerSearch(
  request: IncomingMessage,
  input: { simulator: EngineSimulator; query: URLSearchParams; signal: AbortSignal },
): Promise<SimulatedAnswer> {
  const { simulator } = input;
  let body: unknown;
  if (simulator.method === 'POST') {
    const parsed = await readJsonBody(request);
    if (!parsed.isValid) return simulator.renderError(400);
    body = parsed.value;
  } else {
    request.resume();
  }
  const outcome = simulator.readRequest({ query: input.query, body, headers: request.headers });
  if (!outcome.isValid) return outcome.answer;
  const directives = parseSearchDirectives(outcome.request.query);
  await wait(directives.delayMs, input.signal);
  if (directives.status !== undefined) return simulator.renderError(directives.status);
  const pages = directives.isEmpty ? [] : planSearchPages(directives.query).slice(0, outcome.request.count);
  return simulator.renderResults({ pages, request: outcome.request });
}

function handleTestApi(
  request: IncomingMessage,
  response: ServerResponse,
  input: { path: string; stats: SearchSimulatorStats },
): void {
  request.resume();
  if (input.path === '/_search-sim/stats' && request.method === 'GET') {
    return send(response, { status: 200, body: input.stats });
  }
  if (input.path === '/_search-sim/reset' && request.method === 'POST') {
    Object.assign(input.stats, createStats());
    return send(response, { status: 200, body: { ok: true } });
  }
  send(response, { status: 404, body: { error: 'Unknown endpoint: GET /_search-sim/stats, POST /_search-sim/reset' } });
}

function send(response: ServerResponse, answer: SimulatedAnswer, signal?: AbortSignal): void {
  if (signal?.aborted || response.destroyed) return;
  const isText = answer.isHtml === true && typeof answer.body === 'string';
  const text = isText ? String(answer.body) : JSON.stringify(answer.body);
  response.writeHead(answer.status, {
    ...answer.headers,
    'content-type': isText ? 'text/html; charset=utf-8' : 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(text)),
  });
  response.end(text);
}

function closeSignal(response: ServerResponse): AbortSignal {
  const controller = new AbortController();
  response.once('close', () => controller.abort());
  return controller.signal;
}

function createStats(): SearchSimulatorStats {
  return { requestsByEngine: { searxng: 0, brave: 0, tavily: 0, exa: 0 }, totalRequests: 0 };
}

function listen(server: Server, input: { host: string; port: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(input.port, input.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
}
