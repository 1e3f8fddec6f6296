import type { z } from 'zod';

/**
 * Who may call an endpoint. `public`: anyone. `session`: a signed-in account (the `gw_session` cookie, and
 * `x-csrf-token` unless GET); 401 without one, 403 when the account is blocked. `sessionIfAny`: documented like
 * `session`, but a caller without a session is served too (signing out twice is not an error). `operator`: a
 * session whose account has the `admin` role (403 `operator_only` otherwise). `apiKey`: `Authorization: Bearer sk-…`.
 */
export type EndpointAuth = 'public' | 'session' | 'sessionIfAny' | 'operator' | 'apiKey';

/** A schema with the name it has among the OpenAPI document's component schemas. */
export type NamedSchema = { readonly name: string; readonly schema: z.ZodType };

/**
 * One endpoint of the account and operator API: what the server registers and validates, what the OpenAPI document
 * describes and what the web app's client sends and expects. Path parameters are the `{name}` parts of `path`.
 */
export type ApiEndpoint = {
  readonly method: 'get' | 'post' | 'put' | 'patch' | 'delete';
  readonly path: `/${string}`;
  readonly summary: string;
  readonly auth: EndpointAuth;
  readonly query?: z.ZodObject;
  readonly body?: NamedSchema;
  readonly response: {
    readonly status: 200 | 201 | 204;
    readonly description: string;
    readonly json?: NamedSchema;
    readonly csv?: true;
  };
  /** Error statuses besides 500, each with what it means here; every error body is `ErrorBody`. */
  readonly errors: Readonly<Record<string, string>>;
};

/** The names of a path's `{name}` parameters, as a union of string literals. */
export type PathParameterName<Path extends string> = Path extends `${string}{${infer Name}}${infer Rest}`
  ? Name | PathParameterName<Rest>
  : never;

/** The path parameters of an endpoint, each a string. */
export type EndpointParams<Endpoint extends ApiEndpoint> = Record<PathParameterName<Endpoint['path']>, string>;

/** The parsed query of an endpoint (`undefined` when it takes none). */
export type EndpointQuery<Endpoint extends ApiEndpoint> = Endpoint extends { query: infer Query extends z.ZodType }
  ? z.output<Query>
  : undefined;

/** The parsed body of an endpoint (`undefined` when it takes none). */
export type EndpointBody<Endpoint extends ApiEndpoint> = Endpoint extends {
  body: { schema: infer Body extends z.ZodType };
}
  ? z.output<Body>
  : undefined;

/** What a successful call answers: the JSON schema's value, CSV text, or nothing (204). */
export type EndpointAnswer<Endpoint extends ApiEndpoint> = Endpoint['response'] extends {
  json: { schema: infer Answer extends z.ZodType };
}
  ? z.output<Answer>
  : Endpoint['response'] extends { csv: true }
    ? string
    : void;

/** The names of a path's parameters at run time, in order. */
export function listPathParameters(path: string): string[] {
  return [...path.matchAll(/\{([A-Za-z]+)\}/g)].map((match) => match[1] ?? '');
}

export const sessionErrors = {
  '401': 'Not signed in, or the session ended',
  '403': 'Missing `x-csrf-token`, or the account is blocked',
} as const;

export const operatorErrors = {
  '401': 'Not signed in, or the session ended',
  '403': 'Not an operator (`operator_only`), missing `x-csrf-token`, or the account is blocked',
} as const;

export const apiKeyErrors = {
  '401': 'Missing, malformed, unknown, revoked or expired API key',
  '403': 'The account is blocked',
} as const;
