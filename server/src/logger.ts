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
