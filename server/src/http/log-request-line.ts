import type { Logger } from 'pino';

/**
 * The access log's line for one answered request, written by the root logger with the request's id: the same line
 * as `request.log` writes, without building that logger. Fastify's routes and those served without it
 * (`hot-routes.ts`) write it here alike.
 */
export function logRequestLine(
  logger: Logger,
  line: { reqId: string; method: string; route: string | undefined; status: number; ms: number },
): void {
  logger.info(
    { reqId: line.reqId, method: line.method, route: line.route, status: line.status, ms: Math.round(line.ms) },
    'request',
  );
}
