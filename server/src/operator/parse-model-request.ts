import type { CreateModelRequest, UpdateModelRequest } from '../../../contract/operator-models.ts';
import { parseOptionalUsdAmountMicros, parseUsdAmountMicros } from '../billing/parse-amounts.ts';
import type { ModelRates } from '../catalog/apply-pricing-rule.ts';
import { findFamilyVendor, parseModelFamily, parseModelProvider, type ModelFamily } from '../catalog/model-family.ts';
import type { ModelChanges } from '../db/models.ts';
import type { ModelRow } from '../db/schema.ts';
import { InvalidRequestError } from '../errors/invalid-request-error.ts';

/** A model request checked field by field: the definition columns, the list price, and our price where given. */
export type ParsedModelRequest = {
  changes: ModelChanges;
  list: ModelRates;
  /** Our price: every rate given, some, or none (then the default pricing rule sets the missing ones on creation). */
  ours: Partial<ModelRates>;
};

/**
 * Checks a creation or change against the model as it is (undefined on creation) and returns its columns. Every
 * problem is a 400 naming the field; nothing is written before all fields passed.
 */
export function parseModelRequest(
  request: CreateModelRequest | UpdateModelRequest,
  current: { kind: 'text' | 'image' | 'embedding'; row: ModelRow | undefined },
): ParsedModelRequest {
  const changes: ModelChanges = {};
  if (request.display_name !== undefined) changes.display_name = request.display_name;
  if (request.family !== undefined) changes.family = parseModelFamily(request.family);
  if (request.context_length !== undefined) changes.context_length = request.context_length;
  if (request.max_output_tokens !== undefined) changes.max_output_tokens = request.max_output_tokens;
  const family = (changes.family ?? current.row?.family) as ModelFamily | undefined;
  if (request.provider !== undefined) changes.provider = parseModelProvider(request.provider);
  else if (!current.row && family) changes.provider = findFamilyVendor(family);
  if (request.upstream_model !== undefined) changes.upstream_model = request.upstream_model;
  const flag = (value: boolean | undefined) => (value === undefined ? undefined : value ? 1 : 0);
  const flags = {
    supports_tools: flag(request.supports_tools),
    supports_vision: flag(request.supports_vision),
    supports_json_schema: flag(request.supports_json_schema),
    supports_reasoning: flag(request.supports_reasoning),
    supports_web_search: flag(request.supports_web_search),
  };
  for (const [column, value] of Object.entries(flags)) {
    if (value !== undefined) Object.assign(changes, { [column]: value });
  }
  return { changes, list: parseListPrice(request, current), ours: parseOurPrice(request) };
}

function parseListPrice(
  request: CreateModelRequest | UpdateModelRequest,
  current: { kind: 'text' | 'image' | 'embedding'; row: ModelRow | undefined },
): ModelRates {
  const { row } = current;
  const required = (value: string | number | undefined, param: string, known: number | undefined) => {
    if (value !== undefined) return parseUsdAmountMicros(value, param);
    if (known !== undefined) return known;
    if (current.kind === 'image') return 0;
    throw new InvalidRequestError(`\`${param}\` is required: the vendor's list price of the model.`, {
      param,
      code: 'missing_required_parameter',
    });
  };
  const perRequest = parseOptionalUsdAmountMicros(request.list_usd_per_request, 'list_usd_per_request');
  const list = {
    inputMicros: required(
      request.list_input_usd_per_million,
      'list_input_usd_per_million',
      row?.list_input_rate_micros,
    ),
    outputMicros: required(
      request.list_output_usd_per_million,
      'list_output_usd_per_million',
      row?.list_output_rate_micros,
    ),
    cachedInputMicros:
      parseOptionalUsdAmountMicros(request.list_cached_input_usd_per_million, 'list_cached_input_usd_per_million') ??
      (request.list_cached_input_usd_per_million === null ? null : (row?.list_cached_input_rate_micros ?? null)),
    perRequestMicros: perRequest === undefined ? (row?.list_per_request_micros ?? null) : perRequest,
  };
  if (current.kind === 'image' && list.perRequestMicros === null) {
    throw new InvalidRequestError('An image model needs `list_usd_per_request`: the vendor’s price of one image.', {
      param: 'list_usd_per_request',
      code: 'missing_required_parameter',
    });
  }
  return list;
}

function parseOurPrice(request: CreateModelRequest | UpdateModelRequest): Partial<ModelRates> {
  const ours: Partial<ModelRates> = {};
  if (request.input_usd_per_million !== undefined) {
    ours.inputMicros = parseUsdAmountMicros(request.input_usd_per_million, 'input_usd_per_million');
  }
  if (request.output_usd_per_million !== undefined) {
    ours.outputMicros = parseUsdAmountMicros(request.output_usd_per_million, 'output_usd_per_million');
  }
  const cached = parseOptionalUsdAmountMicros(request.cached_input_usd_per_million, 'cached_input_usd_per_million');
  if (cached !== undefined) ours.cachedInputMicros = cached;
  const perRequest = parseOptionalUsdAmountMicros(request.usd_per_request, 'usd_per_request');
  if (perRequest !== undefined) ours.perRequestMicros = perRequest;
  return ours;
}
