import { timingSafeEqual, createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../errors/not-found-error.ts';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export type HttpMetrics = {
  registry: Registry;
  requests: Counter<'route' | 'method' | 'status'>;
  durationSeconds: Histogram<'route'>;
};

/**
 * Who may read `/metrics`, which names routes and vendors that customers never see: a bearer of `token`, and only on
 * the public port when `isOnPublicPort` (else on the separate metrics address alone). No token and no separate address:
 * nobody.
 */
export type MetricsAccess = {
  token: string | undefined;
  isOnPublicPort: boolean;
  /**
   * Under PROCESSES > 1, the whole gateway's metrics as the launcher merges them (undefined when it does not answer);
   * unset, this process's own registry is the gateway's.
   */
  readGatewayMetrics: (() => Promise<string | undefined>) | undefined;
};

/** Where the `/metrics` text comes from: one registry, or the launcher's merge of every process's. */
export type MetricsSource = { contentType: string; read: () => Promise<string | undefined> };

/** The `/metrics` text of one process's registry. */
export function readRegistry(registry: Registry): MetricsSource {
  return { contentType: registry.contentType, read: () => registry.metrics() };
}

/** A registry of our own (no global default), with process metrics and per-route HTTP counters. */
export function createHttpMetrics(): HttpMetrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'gateway_' });
  return {
    registry,
    requests: new Counter({
      name: 'gateway_http_requests_total',
      help: 'HTTP requests by route template, method and status',
      labelNames: ['route', 'method', 'status'],
      registers: [registry],
    }),
    durationSeconds: new Histogram({
      name: 'gateway_http_request_duration_seconds',
      help: 'Time to the end of the response, by route template',
      labelNames: ['route'],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers: [registry],
    }),
  };
}

/**
 * Counts every response by route template (never the raw URL, which could carry ids). Serves `/metrics` on the public
 * port only to a bearer of the metrics token; otherwise that path is an ordinary 404.
 */
export function registerMetrics(app: FastifyInstance, metrics: HttpMetrics, access: MetricsAccess): void {
  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    countResponse(metrics, { route, method: request.method, status: reply.statusCode, elapsedMs: reply.elapsedTime });
    done();
  });
  const { token } = access;
  if (!access.isOnPublicPort || token === undefined) {
    // Answered like any unknown API path, so it is not mistaken for a page of the web app either.
    app.get('/metrics', async () => {
      throw new NotFoundError('Unknown path: GET /metrics');
    });
    return;
  }
  app.get('/metrics', async (request, reply) => {
    if (!isBearerOf(request.headers.authorization, token)) {
      return reply
        .status(401)
        .header('www-authenticate', 'Bearer realm="metrics"')
        .send({ error: 'A bearer token is required.' });
    }
    const text = await (access.readGatewayMetrics ?? (() => metrics.registry.metrics()))();
    if (text === undefined) return reply.status(503).send({ error: 'The gateway processes did not answer in time.' });
    reply.header('content-type', metrics.registry.contentType);
    return text;
  });
}

/** Counts one response; routes served without Fastify (`hot-routes.ts`) count theirs here too. */
export function countResponse(
  metrics: HttpMetrics,
  response: { route: string; method: string; status: number; elapsedMs: number },
): void {
  metrics.requests.inc({ route: response.route, method: response.method, status: String(response.status) });
  metrics.durationSeconds.observe({ route: response.route }, response.elapsedMs / 1000);
}

/**
 * `/metrics` on an address of its own (`METRICS_LISTEN`), for a scraper on a private network; the token, if set, is
 * required there too.
 */
export async function startMetricsServer(input: {
  source: MetricsSource;
  host: string;
  port: number;
  token: string | undefined;
}): Promise<{ url: string; close: () => Promise<void> }> {
  const server = createServer((request, response) => void answerMetrics(input, request, response));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(input.port, input.host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    url: `http://${host}:${address.port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

async function answerMetrics(
  input: { source: MetricsSource; token: string | undefined },
  request: IncomingMessage,
  response: ServerResponse,
): Promise<void> {
  const path = (request.url ?? '').split('?')[0];
  if (request.method !== 'GET' || path !== '/metrics') {
    response.writeHead(404, { 'content-type': 'text/plain' }).end('Not found\n');
    return;
  }
  if (input.token !== undefined && !isBearerOf(request.headers.authorization, input.token)) {
    response.writeHead(401, { 'www-authenticate': 'Bearer realm="metrics"' }).end();
    return;
  }
  const body = await input.source.read();
  if (body === undefined) {
    response.writeHead(503, { 'content-type': 'text/plain' }).end('The gateway processes did not answer in time.\n');
    return;
  }
  response.writeHead(200, { 'content-type': input.source.contentType }).end(body);
}

/** Compares digests, so the time taken says nothing about how much of the token was right. */
function isBearerOf(authorization: string | undefined, token: string): boolean {
  const presented = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')?.[1];
  if (presented === undefined) return false;
  const digest = (value: string) => createHash('sha256').update(value).digest();
  return timingSafeEqual(digest(presented), digest(token));
}
