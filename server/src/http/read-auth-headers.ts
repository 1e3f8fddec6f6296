import type { IncomingHttpHeaders } from 'node:http';

/** The credential headers an API call may carry: OpenAI-style bearer, or Anthropic-style `x-api-key`. */
export function readAuthHeaders(request: { headers: IncomingHttpHeaders }): {
  authorization?: string;
  apiKey?: string;
} {
  const apiKey = request.headers['x-api-key'];
  return {
    ...(request.headers.authorization === undefined ? {} : { authorization: request.headers.authorization }),
    ...(typeof apiKey === 'string' ? { apiKey } : {}),
  };
}
