import type { DialectError } from '../openai/dialect-quirks.ts';
import {
  integerCodeErrorBodySchema,
  stringErrorBodySchema,
  unwrappedErrorBodySchema,
  validationDetailSchema,
} from './openai-compatible-api.ts';

/** Readers for the dialect error shapes of docs/reference/openai-compatible-vendors.md; the quirk files pick the ones their vendor sends. */

/** Mistral, older vLLM: `{"object":"error","message":…,"type","param","code"}`. */
export function readUnwrappedError(body: unknown): DialectError | undefined {
  const parsed = unwrappedErrorBodySchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { message, type, param, code } = parsed.data;
  const detail = typeof message === 'string' ? undefined : readValidationDetail(message);
  return {
    message: typeof message === 'string' ? message : (detail?.message ?? 'Invalid request.'),
    type: type ?? undefined,
    param: param ?? detail?.param,
    code: code === null || code === undefined ? undefined : String(code),
    status: typeof code === 'number' ? asHttpStatus(code) : undefined,
  };
}

/** llama.cpp, OpenRouter, vLLM: `{"error":{"code":<HTTP status>,"message","type"}}`. */
export function readIntegerCodeError(body: unknown): DialectError | undefined {
  const parsed = integerCodeErrorBodySchema.safeParse(body);
  if (!parsed.success) return undefined;
  const { message, type, param, code } = parsed.data.error;
  return {
    message,
    type: type ?? undefined,
    param: param ?? undefined,
    code: String(code),
    status: asHttpStatus(code),
  };
}

/** xAI: `{"code":"Client specified an invalid argument","error":"…"}`. */
export function readStringError(body: unknown): DialectError | undefined {
  const parsed = stringErrorBodySchema.safeParse(body);
  return parsed.success ? { message: parsed.data.error, code: parsed.data.code ?? undefined } : undefined;
}

/** `loc: ["body","messages",0,"content"]` names the parameter `messages[0].content`. */
function readValidationDetail(message: unknown): { message: string; param: string | undefined } | undefined {
  const parsed = validationDetailSchema.safeParse(message);
  const detail = parsed.success ? parsed.data.detail[0] : undefined;
  if (detail === undefined) return undefined;
  const path = (detail.loc ?? []).filter((segment) => segment !== 'body');
  const param = path.reduce<string>(
    (name, segment) =>
      typeof segment === 'number' ? `${name}[${segment}]` : name === '' ? segment : `${name}.${segment}`,
    '',
  );
  return { message: param === '' ? detail.msg : `${param}: ${detail.msg}`, param: param === '' ? undefined : param };
}

function asHttpStatus(code: number): number | undefined {
  return code >= 400 && code <= 599 ? code : undefined;
}
