import { InvalidRequestError } from '../errors/invalid-request-error.ts';
import { parseWireRequest } from '../openai-api/parse-request.ts';
import { convertResponsesRequest, type ResponsePlan } from './convert-responses-request.ts';
import { responsesRequestSchema, webSearchToolTypes } from './responses-request.ts';

const supportedToolTypes: readonly string[] = ['function', ...webSearchToolTypes];
const supportedItemTypes: readonly string[] = [
  'message',
  'function_call',
  'function_call_output',
  'reasoning',
  'web_search_call',
  'item_reference',
];

/**
 * An untrusted `POST /v1/responses` body → the plan the orchestrator runs, or a 400 naming the field. Tool and item
 * types the gateway does not serve get their own message, since a schema error alone would not say why.
 */
export function parseResponsesRequest(body: unknown): ResponsePlan {
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
    const fields = body as { tools?: unknown; input?: unknown };
    findUnsupportedType(fields.tools, { param: 'tools', supported: supportedToolTypes, noun: 'Tools' });
    findUnsupportedType(fields.input, { param: 'input', supported: supportedItemTypes, noun: 'Input items' });
  }
  return convertResponsesRequest(parseWireRequest(responsesRequestSchema, body));
}

function findUnsupportedType(
  list: unknown,
  input: { param: string; supported: readonly string[]; noun: string },
): void {
  if (!Array.isArray(list)) return;
  list.forEach((entry: unknown, index) => {
    if (typeof entry !== 'object' || entry === null || !('type' in entry)) return;
    const type: unknown = entry.type;
    if (typeof type === 'string' && input.supported.includes(type)) return;
    throw new InvalidRequestError(
      `${input.noun} of type ${JSON.stringify(type)} are not supported. Supported: ${input.supported.join(', ')}.`,
      { param: `${input.param}[${index}].type`, code: 'unsupported_value' },
    );
  });
}
