import type { PublicModel } from '../../../../contract/models.ts';
import { findTokenRateUsd } from './token-rate.ts';

export const modelKindFilters = ['all', 'text', 'image'] as const;
export type ModelKindFilter = (typeof modelKindFilters)[number];

export const modelSorts = [
  'vendor',
  'name',
  'input-asc',
  'input-desc',
  'output-asc',
  'output-desc',
  'per-request-asc',
  'per-request-desc',
  'discount-desc',
] as const;
export type ModelSort = (typeof modelSorts)[number];

/** What the visitor picked on the models page; `family` is undefined for all vendors. */
export type ModelQuery = {
  search: string;
  family: string | undefined;
  kind: ModelKindFilter;
  sort: ModelSort;
};

export const defaultModelQuery: ModelQuery = { search: '', family: undefined, kind: 'all', sort: 'vendor' };

/** A run of rows under one heading: a vendor family when sorted by vendor, else one untitled group. */
export type ModelGroup = { family: string | undefined; models: PublicModel[] };

type SortKey = { value: (model: PublicModel) => number | null | undefined; direction: 1 | -1 };

const sortKeys = {
  vendor: undefined,
  name: undefined,
  'input-asc': { value: (model) => findTokenRateUsd(model, 'input'), direction: 1 },
  'input-desc': { value: (model) => findTokenRateUsd(model, 'input'), direction: -1 },
  'output-asc': { value: (model) => findTokenRateUsd(model, 'output'), direction: 1 },
  'output-desc': { value: (model) => findTokenRateUsd(model, 'output'), direction: -1 },
  'per-request-asc': { value: (model) => model.usd_per_request, direction: 1 },
  'per-request-desc': { value: (model) => model.usd_per_request, direction: -1 },
  'discount-desc': { value: (model) => model.discount_percent, direction: -1 },
} as const satisfies Record<ModelSort, SortKey | undefined>;

/** The vendor families in the order the price list first mentions them. */
export function listFamilies(models: readonly PublicModel[]): string[] {
  return [...new Set(models.map((model) => model.family))];
}

/**
 * Filters the price list by search text (name or id, any case), family and kind, then sorts it. Sorting by vendor
 * keeps the price list's own order and groups rows by family; any other sort gives one group. Models without the
 * sorted price (a text model has no per-image price, an image model may have no token rates) go last in either
 * direction; ties go by name.
 */
export function selectModels(models: readonly PublicModel[], query: ModelQuery): ModelGroup[] {
  const needle = query.search.trim().toLowerCase();
  const matching = models.filter(
    (model) =>
      (query.family === undefined || model.family === query.family) &&
      (query.kind === 'all' || model.kind === query.kind) &&
      (needle === '' || model.display_name.toLowerCase().includes(needle) || model.id.toLowerCase().includes(needle)),
  );
  if (query.sort === 'vendor') {
    return listFamilies(matching).map((family) => ({
      family,
      models: matching.filter((model) => model.family === family),
    }));
  }
  return [{ family: undefined, models: [...matching].sort(compareFor(query.sort)) }];
}

function compareFor(sort: Exclude<ModelSort, 'vendor'>): (a: PublicModel, b: PublicModel) => number {
  const byName = (a: PublicModel, b: PublicModel) => a.display_name.localeCompare(b.display_name, 'en');
  const key = sortKeys[sort];
  if (key === undefined) return byName;
  return (a, b) => {
    const valueA = key.value(a) ?? undefined;
    const valueB = key.value(b) ?? undefined;
    if (valueA === undefined || valueB === undefined) {
      if (valueA === valueB) return byName(a, b);
      return valueA === undefined ? 1 : -1;
    }
    return (valueA - valueB) * key.direction || byName(a, b);
  };
}

/** Reads a query from the page address (`?q=…&family=…&kind=…&sort=…`); unknown values fall back to defaults. */
export function parseModelQuery(search: string): ModelQuery {
  const params = new URLSearchParams(search);
  const kind = modelKindFilters.find((value) => value === params.get('kind'));
  const sort = modelSorts.find((value) => value === params.get('sort'));
  return {
    search: params.get('q') ?? '',
    family: params.get('family') || undefined,
    kind: kind ?? defaultModelQuery.kind,
    sort: sort ?? defaultModelQuery.sort,
  };
}

/** The page address's query string for a query ("" for the defaults), so a filtered list can be linked to. */
export function formatModelQuery(query: ModelQuery): string {
  const params = new URLSearchParams();
  if (query.search !== '') params.set('q', query.search);
  if (query.family !== undefined) params.set('family', query.family);
  if (query.kind !== defaultModelQuery.kind) params.set('kind', query.kind);
  if (query.sort !== defaultModelQuery.sort) params.set('sort', query.sort);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}
