import type { ProviderId } from '../providers/provider-id.ts';
import { parseBodyText } from '../providers/shared/parse-error-body.ts';
import { findVendorModelList, type VendorModelList } from '../providers/vendor-model-list.ts';
import type { UpstreamReply, UpstreamRequest } from '../upstream/request-buffered.ts';
import { UpstreamTransportError } from '../upstream/upstream-transport-error.ts';
import type { Route } from './route-table.ts';

/** What one vendor's API says it serves; `modelIds` is undefined when no list could be read. */
export type VendorModelListing = {
  provider: ProviderId;
  modelIds: ReadonlySet<string> | undefined;
  /** Why a list (or one of several, for a vendor reached at several addresses) could not be read. */
  problem: string | undefined;
};

export type FetchModelListsDeps = { request: (request: UpstreamRequest) => Promise<UpstreamReply>; timeoutMs: number };

const maxPages = 20;
const maxBodyBytes = 8 * 1024 * 1024;

/**
 * Reads the model list of every vendor the live routes reach, once per address and credential, through the one
 * upstream HTTP client. A vendor whose list fails at any address is reported with its problem and no list, so no
 * model is called unlisted on the word of a partial answer.
 */
export async function fetchVendorModelLists(
  deps: FetchModelListsDeps,
  routes: readonly Route[],
): Promise<VendorModelListing[]> {
  const endpoints = new Map<string, { provider: ProviderId; baseUrl: string; credential: string | undefined }>();
  for (const route of routes) {
    if (!findVendorModelList(route.provider)) continue;
    const key = `${route.provider} ${route.baseUrl} ${route.credential ?? ''}`;
    endpoints.set(key, { provider: route.provider, baseUrl: route.baseUrl, credential: route.credential });
  }
  const listings = new Map<ProviderId, VendorModelListing>();
  for (const endpoint of endpoints.values()) {
    const list = findVendorModelList(endpoint.provider);
    if (!list) continue;
    const read = await readModelList(deps, { ...endpoint, list });
    const known = listings.get(endpoint.provider);
    const problem = known?.problem ?? read.problem;
    const modelIds =
      problem === undefined ? new Set([...(known?.modelIds ?? []), ...(read.modelIds ?? [])]) : undefined;
    listings.set(endpoint.provider, { provider: endpoint.provider, modelIds, problem });
  }
  return [...listings.values()];
}

async function readModelList(
  deps: FetchModelListsDeps,
  input: { provider: ProviderId; baseUrl: string; credential: string | undefined; list: VendorModelList },
): Promise<{ modelIds: string[] | undefined; problem: string | undefined }> {
  const modelIds: string[] = [];
  let pageToken: string | undefined;
  for (let page = 0; page < maxPages; page += 1) {
    const pageRequest = input.list.buildPageRequest({ ...input, pageToken });
    let reply: UpstreamReply;
    try {
      reply = await deps.request({ method: 'GET', ...pageRequest, timeoutMs: deps.timeoutMs, maxBodyBytes });
    } catch (error) {
      if (!(error instanceof UpstreamTransportError)) throw error;
      return {
        modelIds: undefined,
        problem: `${input.provider}: the model list could not be reached (${error.message})`,
      };
    }
    if (reply.status !== 200) {
      return { modelIds: undefined, problem: `${input.provider}: the model list answered HTTP ${reply.status}` };
    }
    const parsed = input.list.parsePage(parseBodyText(reply.bodyText));
    if (!parsed)
      return { modelIds: undefined, problem: `${input.provider}: the model list was not in the vendor's format` };
    modelIds.push(...parsed.modelIds);
    if (parsed.nextPageToken === undefined) return { modelIds, problem: undefined };
    pageToken = parsed.nextPageToken;
  }
  return { modelIds: undefined, problem: `${input.provider}: the model list had more than ${maxPages} pages` };
}
