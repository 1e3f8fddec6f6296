import { clipEcho } from '../lib/clip-echo.ts';

/**
 * Base of every error the gateway returns to a client. Each subclass fixes the HTTP status, the OpenAI `type` and a
 * default `code`; `http/write-error.ts` turns it into the four-key OpenAI error body.
 */
/**
 * Options every gateway error takes; `code` overrides the class default and must be one of the class's closed list
 * (its `codes`), so a code nobody documented is a type error.
 */
export type GatewayErrorOptions<Code extends string | null = string | null> = {
  code?: Code;
  param?: string | null;
  headers?: Record<string, string>;
  cause?: unknown;
};

/** The longest message a client receives; a longer one is cut (`clipEcho`). */
export const maxMessageChars = 1_000;

export abstract class GatewayError extends Error {
  abstract readonly status: number;
  abstract readonly type: string;
  readonly code: string | null;
  readonly param: string | null;
  /** Extra response headers (for example `Retry-After`). */
  readonly headers: Readonly<Record<string, string>>;

  constructor(message: string, options: GatewayErrorOptions = {}) {
    // A backstop for messages that quote client input: no answer or log line carries a value of unbounded size.
    super(clipEcho(message, maxMessageChars), options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = options.code ?? null;
    this.param = options.param === undefined || options.param === null ? null : clipEcho(options.param);
    this.headers = options.headers ?? {};
  }
}
