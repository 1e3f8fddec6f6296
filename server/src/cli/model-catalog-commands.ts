import type { CreateModelRequest, UpdateModelRequest } from '../../../contract/operator-models.ts';
import { loadPriceList } from '../catalog/price-list.ts';
import { listModelImagePriceTiers } from '../db/image-price-tiers.ts';
import { listModels } from '../db/models.ts';
import type { ModelRow } from '../db/schema.ts';
import { formatUsd } from '../lib/money.ts';
import { listOperatorModels } from '../operator/list-operator-models.ts';
import { addModel, restoreModel, retireModel, updateModel, type ManageModelsDeps } from '../operator/manage-models.ts';
import { listStoredRouteCosts } from '../operator/model-route-costs.ts';
import { parseInteger, parseOptions, UsageError, type CliContext } from './cli-context.ts';

export const modelCatalogActions = ['add', 'update', 'retire', 'restore', 'list'] as const;
export type ModelCatalogAction = (typeof modelCatalogActions)[number];

const definitionOptions = {
  name: { type: 'string' },
  family: { type: 'string' },
  'context-length': { type: 'string' },
  'max-output-tokens': { type: 'string' },
  provider: { type: 'string' },
  'upstream-model': { type: 'string' },
  capabilities: { type: 'string' },
  'list-input-usd': { type: 'string' },
  'list-output-usd': { type: 'string' },
  'list-cached-input-usd': { type: 'string' },
  'list-per-image-usd': { type: 'string' },
  'input-usd': { type: 'string' },
  'output-usd': { type: 'string' },
  'cached-input-usd': { type: 'string' },
  'per-image-usd': { type: 'string' },
  'confirm-below-cost': { type: 'boolean' },
  reason: { type: 'string' },
} as const;

const capabilityNames = ['tools', 'vision', 'json_schema', 'reasoning', 'web_search'] as const;

/**
 * `model add | update | retire | restore | list`: the same checks as the operator API (`operator/manage-models.ts`),
 * with route costs read from the stored routes (a model without one: its vendor's own API at the list price).
 */
export async function runModelCatalogCommand(
  context: CliContext,
  action: ModelCatalogAction,
  args: readonly string[],
): Promise<void> {
  const priceList = await loadPriceList(context.db);
  const deps: ManageModelsDeps = {
    db: context.db,
    clock: context.clock,
    pricingRule: context.config.pricingRule,
    routeCosts: listStoredRouteCosts(context.db),
    priceList,
  };
  if (action === 'list') return printModels(context, deps, args);
  if (action === 'restore') {
    const options = parseOptions(args, { model: { type: 'string', required: true } });
    const row = await restoreModel(deps, options.model ?? '');
    return context.print(`${row.id} restored: back in the model lists at its last price`);
  }
  if (action === 'retire') {
    const options = parseOptions(args, { model: { type: 'string', required: true }, successor: { type: 'string' } });
    const row = await retireModel(deps, { modelId: options.model ?? '', successorId: options.successor ?? null });
    return context.print(`${row.id} retired${row.successor_id ? `; callers are told to use ${row.successor_id}` : ''}`);
  }
  if (action === 'add') {
    const options = parseOptions(args, {
      ...definitionOptions,
      id: { type: 'string', required: true },
      kind: { type: 'string', required: true },
      name: { type: 'string', required: true },
      family: { type: 'string', required: true },
      'context-length': { type: 'string', required: true },
    });
    if (options.kind !== 'text' && options.kind !== 'image') throw new UsageError('--kind must be text or image');
    const request: CreateModelRequest = {
      ...readDefinition(options),
      id: options.id ?? '',
      kind: options.kind,
      display_name: options.name ?? '',
      family: options.family ?? '',
      context_length: readCount('context-length', options['context-length']) ?? 0,
      max_output_tokens: readCount('max-output-tokens', options['max-output-tokens']) ?? 0,
    };
    const row = await addModel(deps, request);
    return context.print(`${row.id} added (${row.family}, ${row.kind}); served by ${row.provider ?? 'no vendor'}`);
  }
  const options = parseOptions(args, { ...definitionOptions, model: { type: 'string', required: true } });
  const row = await updateModel(deps, { modelId: options.model ?? '', request: readDefinition(options) });
  context.print(`${row.id} updated`);
}

type DefinitionValues = {
  [Name in keyof typeof definitionOptions]: (typeof definitionOptions)[Name]['type'] extends 'boolean'
    ? boolean
    : string | undefined;
};

function readDefinition(options: DefinitionValues): UpdateModelRequest {
  const request: UpdateModelRequest = {};
  const text = {
    name: 'display_name',
    family: 'family',
    provider: 'provider',
    'upstream-model': 'upstream_model',
  } as const;
  for (const [option, field] of Object.entries(text)) {
    const value = options[option as keyof typeof text];
    if (value !== undefined) request[field] = value;
  }
  const contextLength = readCount('context-length', options['context-length']);
  if (contextLength !== undefined) request.context_length = contextLength;
  const maxOutput = readCount('max-output-tokens', options['max-output-tokens']);
  if (maxOutput !== undefined) request.max_output_tokens = maxOutput;
  // Amounts go to the domain as text: it checks them exactly (negative, non-numeric, over six decimals) for CLI and API alike.
  const amounts = {
    'list-input-usd': 'list_input_usd_per_million',
    'list-output-usd': 'list_output_usd_per_million',
    'list-cached-input-usd': 'list_cached_input_usd_per_million',
    'list-per-image-usd': 'list_usd_per_request',
    'input-usd': 'input_usd_per_million',
    'output-usd': 'output_usd_per_million',
    'cached-input-usd': 'cached_input_usd_per_million',
    'per-image-usd': 'usd_per_request',
  } as const;
  for (const [option, field] of Object.entries(amounts)) {
    const value = options[option as keyof typeof amounts];
    if (value !== undefined) request[field] = value;
  }
  if (options.capabilities !== undefined) Object.assign(request, readCapabilities(options.capabilities));
  if (options['confirm-below-cost']) request.confirm_below_cost = true;
  if (options.reason !== undefined) request.reason = options.reason;
  return request;
}

function readCount(name: string, text: string | undefined): number | undefined {
  return text === undefined ? undefined : parseInteger(name, text, { min: 0, max: 100_000_000 });
}

/** `--capabilities tools,vision,…`: the ones named are on, the others off. */
function readCapabilities(text: string): UpdateModelRequest {
  const named = text
    .split(',')
    .map((name) => name.trim())
    .filter((name) => name !== '' && name !== 'none');
  const unknown = named.filter((name) => !capabilityNames.some((known) => known === name));
  if (unknown.length > 0) {
    throw new UsageError(`unknown capability "${unknown.join(', ')}" (expected: ${capabilityNames.join(', ')}, none)`);
  }
  const has = (name: (typeof capabilityNames)[number]) => named.includes(name);
  return {
    supports_tools: has('tools'),
    supports_vision: has('vision'),
    supports_json_schema: has('json_schema'),
    supports_reasoning: has('reasoning'),
    supports_web_search: has('web_search'),
  };
}

async function printModels(context: CliContext, deps: ManageModelsDeps, args: readonly string[]): Promise<void> {
  const options = parseOptions(args, { retired: { type: 'boolean' } });
  const { data } = await listOperatorModels(deps);
  const rows = new Map((await listModels(context.db)).map((row) => [row.id, row]));
  for (const model of data) {
    const row = rows.get(model.id);
    if (!row || (model.retired_at !== null) !== options.retired) continue;
    const price =
      row.kind === 'image'
        ? await describeImagePrice(context, row)
        : `in ${formatUsd(row.input_rate_micros)} out ${formatUsd(row.output_rate_micros)} USD/1M tokens`;
    const margin = model.margin_percent === null ? 'no route' : `margin ${model.margin_percent.toFixed(2)}%`;
    const flags = [
      model.is_below_cost ? 'BELOW COST' : '',
      row.enabled ? '' : 'disabled',
      model.successor ? `successor ${model.successor}` : '',
    ].filter((flag) => flag !== '');
    context.print(
      `${model.id.padEnd(28)} ${model.family.padEnd(10)} ${model.kind.padEnd(5)} ${price}  ${margin}` +
        `${flags.length === 0 ? '' : `  (${flags.join(', ')})`}`,
    );
  }
}

/**
 * An image model's stored price is the flat price its tiers scale from; the model lists show the price of a default
 * request instead (a dearer tier for GPT Image), so the flat one is labelled as such, with its tiers pointed to.
 */
async function describeImagePrice(context: CliContext, model: ModelRow): Promise<string> {
  const flat = `flat ${formatUsd(model.per_request_micros ?? 0)} USD/image`;
  const tierCount = (await listModelImagePriceTiers(context.db, model.id)).length;
  return tierCount === 0 ? flat : `${flat}, ${tierCount} price tiers (model image-tiers --model ${model.id})`;
}
