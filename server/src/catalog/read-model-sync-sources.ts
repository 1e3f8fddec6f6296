import type { Dispatcher } from 'undici';
import { requestBuffered } from '../upstream/request-buffered.ts';
import { fetchVendorModelLists, type VendorModelListing } from './fetch-vendor-model-lists.ts';
import { loadPriceData, type PriceData } from './load-price-data.ts';
import type { Route } from './route-table.ts';

export type ModelSyncSources = { priceData: PriceData; listings: VendorModelListing[] };

export type ReadModelSyncSourcesDeps = {
  /**
   * The model upstreams' client (with its SSRF guard), which the vendors' lists are read through; undefined: the
   * global pool (the CLI). The price data file is the operator's own setting, like the search engine: no guard.
   */
  vendorDispatcher: Dispatcher | undefined;
  timeoutMs: number;
  /** The published genai-prices data file; undefined: use the bundled data only. */
  priceDataUrl: string | undefined;
  /** The live routes whose vendors' model lists are read. */
  routes: () => readonly Route[];
};

/** Reads both sources of a sync: the genai-prices data and the model lists of the live routes' vendors. */
export async function readModelSyncSources(deps: ReadModelSyncSourcesDeps): Promise<ModelSyncSources> {
  const [priceData, listings] = await Promise.all([
    loadPriceData(
      { request: (request) => requestBuffered(request), timeoutMs: deps.timeoutMs },
      { url: deps.priceDataUrl },
    ),
    fetchVendorModelLists(
      { request: (request) => requestBuffered(request, deps.vendorDispatcher), timeoutMs: deps.timeoutMs },
      deps.routes(),
    ),
  ]);
  return { priceData, listings };
}
