import type { UpstreamFailure } from '../../../providers/provider-adapter.ts';
import { createUpstreamFailure } from '../../../providers/shared/create-upstream-failure.ts';
import { parseErrorBody } from '../../../providers/shared/parse-error-body.ts';
import { bflErrorSchema } from './bfl-api.ts';

/** BFL body fields → OpenAI image request parameters. */
const paramByField: Readonly<Record<string, string>> = { prompt: 'prompt', width: 'size', height: 'size' };

/**
 * A failed BFL answer → how to handle it: 402 (our BFL credits ran out) and 403 (our key) are route problems, 429 is
 * BFL's limit on active tasks, a 400/422 is the request's fault.
 * @see https://docs.bfl.ai/api_integration/errors
 */
export function parseBflError(input: {
  status: number;
  body: unknown;
  headers: Readonly<Record<string, string>>;
}): UpstreamFailure {
  const parsed = parseErrorBody(input.body, bflErrorSchema);
  const detail = parsed.isStructured ? parsed.error.detail : undefined;
  let vendorMessage = parsed.isStructured ? undefined : parsed.text;
  let param: string | undefined;
  if (typeof detail === 'string') vendorMessage = detail;
  else if (detail) {
    const first = detail[0];
    const field = first?.loc?.at(-1);
    param = typeof field === 'string' ? paramByField[field] : undefined;
    vendorMessage = [field, first?.msg].filter((part) => part !== undefined).join(': ');
  }
  return createUpstreamFailure({
    status: input.status,
    headers: input.headers,
    vendorMessage,
    param,
    vendorCode: input.status === 422 ? 'validation_error' : undefined,
  });
}
