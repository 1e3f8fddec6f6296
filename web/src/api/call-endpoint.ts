import { z } from 'zod';
import type { ApiEndpoint, PathParameterName } from '../../../contract/api-endpoint.ts';
import { getJson, sendJson, type RequestOptions } from './api-client.ts';

/** What a call sends: the entry's path parameters, query and body, each only when the entry has one. */
export type EndpointRequest<Endpoint extends ApiEndpoint> = ([PathParameterName<Endpoint['path']>] extends [never]
  ? unknown
  : { params: Record<PathParameterName<Endpoint['path']>, string> }) &
  (Endpoint extends { query: infer Query extends z.ZodType } ? { query: z.input<Query> } : unknown) &
  (Endpoint extends { body: { schema: infer Body extends z.ZodType } } ? { body: z.input<Body> } : unknown);

/** What a call answers: the entry's response schema's value (a 204 answers an empty object). */
export type EndpointResult<Endpoint extends ApiEndpoint> = Endpoint['response'] extends {
  json: { schema: infer Answer extends z.ZodType };
}
  ? z.output<Answer>
  : Record<string, never>;

const noContentSchema = z.object({});
const sendMethods = { post: 'POST', put: 'PUT', patch: 'PATCH', delete: 'DELETE' } as const;

/**
 * Calls one endpoint of the gateway's own API as its entry in `contract/api-endpoints.ts` describes it: the path
 * with its parameters filled in, the query without empty values, the body; the answer is checked against the
 * entry's response schema.
 */
export function callEndpoint<Endpoint extends ApiEndpoint>(
  endpoint: Endpoint,
  request: EndpointRequest<Endpoint>,
  options: RequestOptions = {},
): Promise<EndpointResult<Endpoint>> {
  const parts: object = request ?? {};
  const path = fillPath(endpoint.path, 'params' in parts ? parts.params : undefined);
  const query = 'query' in parts ? toSearch(parts.query) : '';
  // The compiler cannot tie a generic entry's schema to its answer type; it is the same entry's schema.
  const schema = (endpoint.response.json?.schema ?? noContentSchema) as z.ZodType<EndpointResult<Endpoint>>;
  const method: ApiEndpoint['method'] = endpoint.method;
  if (method === 'get') return getJson(`${path}${query}`, schema, options);
  const body = 'body' in parts ? { body: parts.body } : {};
  return sendJson(`${path}${query}`, schema, { ...options, method: sendMethods[method], ...body });
}

function fillPath(path: string, params: unknown): string {
  const values = new Map<string, unknown>(typeof params === 'object' && params !== null ? Object.entries(params) : []);
  return path.replaceAll(/\{([A-Za-z]+)\}/g, (_match, name: string) => encodeURIComponent(String(values.get(name))));
}

/** The query string (`?from&to&model…`) of a query object, without empty values. */
export function toSearch(query: unknown): string {
  if (typeof query !== 'object' || query === null) return '';
  const parameters = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') parameters.set(name, String(value));
  }
  const text = parameters.toString();
  return text ? `?${text}` : '';
}
