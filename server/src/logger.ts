import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs. Credentials are redacted; request and response bodies are never logged anywhere
 * (no serializer includes them), so prompt and completion text cannot reach the log.
 */
export function createLogger(options: { level: string }): Logger {
  return pino({
    level: options.level,
    base: { service: 'gateway' },
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers["x-api-key"]',
        'req.headers.cookie',
        '*.credential',
        '*.password',
      ],
      censor: '[redacted]',
    },
    hooks: {
      // Fastify logs "Server listening at …" when it binds; main.ts logs the one start-up line (address, database,
      // sandbox mode), so Fastify's would only repeat part of it.
      logMethod(args, method) {
        if (typeof args[0] === 'string' && args[0].startsWith('Server listening at ')) return;
        method.apply(this, args);
      },
    },
    serializers: {
      req: (request: { method?: string; url?: string; id?: string }) => ({
        method: request.method,
        url: request.url?.split('?')[0],
        id: request.id,
      }),
      res: (response: { statusCode?: number }) => ({ statusCode: response.statusCode }),
    },
  });
}
