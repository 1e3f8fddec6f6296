import assert from 'node:assert/strict';
import type { Me } from '../../../contract/auth.ts';

/** A signed-in browser: its session cookie and the CSRF token the server gave it. */
export type BrowserSession = { cookie: string; csrfToken: string; me: Me };

export type ApiResponse = { status: number; headers: Headers; text: string; json: unknown };

/** Calls the account API like a browser: JSON body, the session cookie, and `x-csrf-token` unless told otherwise. */
export async function callApi(
  baseUrl: string,
  path: string,
  options: {
    method?: string;
    body?: unknown;
    rawBody?: string;
    session?: BrowserSession;
    csrfToken?: string | null;
    headers?: Record<string, string>;
  } = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.body !== undefined || options.rawBody !== undefined) headers['content-type'] = 'application/json';
  if (options.session) headers.cookie = options.session.cookie;
  const csrfToken = options.csrfToken === undefined ? options.session?.csrfToken : options.csrfToken;
  if (csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(`${baseUrl}${path}`, {
    method: options.method ?? (options.body === undefined && options.rawBody === undefined ? 'GET' : 'POST'),
    headers,
    ...(options.rawBody !== undefined ? { body: options.rawBody } : {}),
    ...(options.body !== undefined ? { body: JSON.stringify(options.body) } : {}),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.status, headers: response.headers, text, json };
}

/** The `gw_session=…` pair of a response's Set-Cookie header. */
export function readSessionCookie(response: ApiResponse): string {
  const setCookie = response.headers.get('set-cookie') ?? '';
  const pair = /^(gw_session=[^;]*)/.exec(setCookie)?.[1];
  assert.ok(pair, `no session cookie in ${setCookie}`);
  return pair;
}

export async function signUp(
  baseUrl: string,
  credentials: { email: string; password?: string; altcha?: unknown },
): Promise<BrowserSession> {
  const response = await callApi(baseUrl, '/api/auth/register', {
    body: {
      email: credentials.email,
      password: credentials.password ?? 'correct horse battery staple',
      ...(credentials.altcha === undefined ? {} : { altcha: credentials.altcha }),
    },
  });
  assert.equal(response.status, 201, response.text);
  const me = response.json as Me;
  return { cookie: readSessionCookie(response), csrfToken: me.csrf_token, me };
}

export async function signIn(
  baseUrl: string,
  credentials: { email: string; password?: string },
): Promise<BrowserSession> {
  const response = await callApi(baseUrl, '/api/auth/login', {
    body: { email: credentials.email, password: credentials.password ?? 'correct horse battery staple' },
  });
  assert.equal(response.status, 200, response.text);
  const me = response.json as Me;
  return { cookie: readSessionCookie(response), csrfToken: me.csrf_token, me };
}

/** The OpenAI error body of a response, checked to have all four keys. */
export function readError(response: ApiResponse): {
  message: string;
  type: string;
  param: string | null;
  code: string | null;
} {
  const body = response.json as { error: { message: string; type: string; param: string | null; code: string | null } };
  assert.deepEqual(Object.keys(body.error).sort(), ['code', 'message', 'param', 'type'], response.text);
  return body.error;
}
