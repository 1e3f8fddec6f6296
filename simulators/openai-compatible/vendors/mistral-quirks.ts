import { alphanumeric } from '../../shared/random.ts';
import { createSimError, type SimError } from '../../shared/sim-error.ts';
import { baseQuirks } from '../base-quirks.ts';
import type { ChatRequest } from '../chat-request-schema.ts';
import type { DialectQuirks } from '../dialect-quirks.ts';
import { openAiErrorType } from '../render-openai-error-body.ts';

const mistralToolCallIdPattern = /^[a-zA-Z0-9]{9}$/;

/**
 * Mistral (docs/reference/openai-compatible-vendors.md): error bodies without the `error` wrapper, tool-call ids of exactly nine alphanumerics
 * (and a 400 for any other id in the history), `tool_choice: "any"`.
 */
export const mistralQuirks: DialectQuirks = {
  ...baseQuirks,
  vendor: 'mistral',
  knownModels: { priceDataProviderId: 'mistral', pattern: /^(mistral|codestral|devstral|magistral|ministral|pixtral)/ },
  modelIds: ['mistral-large-latest', 'mistral-medium-latest', 'mistral-small-latest', 'codestral-latest'],
  requestIdHeaders: (requestId) => ({ 'mistral-correlation-id': requestId, 'x-kong-request-id': requestId }),
  createRequestId: (ids) => ids.nextString('0123456789abcdef', 32).replace(/^(.{8})(.{4})(.{4})(.{4})/, '$1-$2-$3-$4-'),
  createCompletionId: (ids) => ids.nextString('0123456789abcdef', 32),
  createToolCallId: (ids) => ids.nextString(alphanumeric, 9),
  findRequestError: findToolCallIdError,
  renderErrorBody: (error) => ({
    object: 'error',
    message: error.message,
    type: error.vendorType ?? (error.status === 401 ? 'authentication_error' : openAiErrorType(error.status)),
    param: error.param,
    code: error.code,
  }),
};

function findToolCallIdError(request: ChatRequest): SimError | undefined {
  for (const message of request.messages) {
    const ids = [
      ...(message.tool_calls ?? []).map((call) => call.id),
      ...(message.tool_call_id === undefined ? [] : [message.tool_call_id]),
    ];
    const invalid = ids.find((id) => !mistralToolCallIdPattern.test(id));
    if (invalid !== undefined) {
      return createSimError(400, `Tool call id was ${invalid} but must be a-z, A-Z, 0-9, with a length of 9.`, {
        vendorType: 'invalid_function_call',
        code: '3280',
      });
    }
  }
  return undefined;
}
