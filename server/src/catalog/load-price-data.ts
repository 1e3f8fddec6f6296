import type { Provider } from '@pydantic/genai-prices';
import { z } from 'zod';
import { parseBodyText } from '../providers/shared/parse-error-body.ts';
import type { UpstreamReply, UpstreamRequest } from '../upstream/request-buffered.ts';
import { UpstreamTransportError } from '../upstream/upstream-transport-error.ts';

/** The genai-prices data a sync read, and which copy it was: the published file or the one bundled with the package. */
export type PriceData = {
  providers: readonly Provider[];
  source: 'published' | 'bundled';
  /** The published file's address (undefined when refreshing is switched off). */
  url: string | undefined;
  /** Why the published file was not used, when it was not. */
  problem: string | undefined;
};

const tieredPriceSchema = z.object({
  base: z.number().nonnegative(),
  tiers: z.array(z.object({ start: z.number().nonnegative(), price: z.number().nonnegative() })),
});
const modelPriceSchema = z.record(z.string(), z.union([z.number().nonnegative(), tieredPriceSchema]));
const constraintSchema = z.union([
  z.object({ start_date: z.string().regex(/^\d{4}-\d{2}-\d{2}$/), type: z.literal('start_date').optional() }),
  z.object({ start_time: z.string(), end_time: z.string(), type: z.literal('time_of_date').optional() }),
]);

/**
 * The parts of the data file (`prices/new_data/v2/data.json`, a JSON array of providers) the sync reads; other keys
 * are kept as they are, since the package's own price calculation reads them.
 * @see https://github.com/pydantic/genai-prices/tree/main/prices
 */
const priceDataSchema = z
  .array(
    z.looseObject({
      id: z.string().min(1),
      name: z.string(),
      api_pattern: z.string(),
      models: z.array(
        z.looseObject({
          id: z.string().min(1),
          name: z.string().optional(),
          deprecated: z.boolean().optional(),
          context_window: z.number().int().positive().optional(),
          match: z.record(z.string(), z.unknown()),
          prices: z.union([
            modelPriceSchema,
            z.array(z.object({ constraint: constraintSchema.optional(), prices: modelPriceSchema })),
          ]),
        }),
      ),
    }),
  )
  .min(1);

export type LoadPriceDataDeps = { request: (request: UpstreamRequest) => Promise<UpstreamReply>; timeoutMs: number };

const maxBodyBytes = 64 * 1024 * 1024;

/**
 * Reads the published genai-prices data file when `url` is set and it answers well-formed data; otherwise the data
 * bundled with the installed package, saying why. Never throws for an unreachable or malformed source.
 */
export async function loadPriceData(deps: LoadPriceDataDeps, input: { url: string | undefined }): Promise<PriceData> {
  const { url } = input;
  if (url === undefined) return { ...(await loadBundled()), url, problem: 'refreshing is switched off' };
  const published = await readPublished(deps, url);
  if ('providers' in published) return { providers: published.providers, source: 'published', url, problem: undefined };
  return { ...(await loadBundled()), url, problem: published.problem };
}

async function readPublished(
  deps: LoadPriceDataDeps,
  url: string,
): Promise<{ providers: readonly Provider[] } | { problem: string }> {
  let reply: UpstreamReply;
  try {
    reply = await deps.request({
      method: 'GET',
      url,
      headers: { accept: 'application/json' },
      timeoutMs: deps.timeoutMs,
      maxBodyBytes,
    });
  } catch (error) {
    if (!(error instanceof UpstreamTransportError)) throw error;
    return { problem: `the published price data could not be reached (${error.message})` };
  }
  if (reply.status !== 200) return { problem: `the published price data answered HTTP ${reply.status}` };
  const parsed = priceDataSchema.safeParse(parseBodyText(reply.bodyText));
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue ? ` at ${issue.path.join('.') || 'the top level'}: ${issue.message}` : '';
    return { problem: `the published price data is not in the genai-prices format${where}` };
  }
  // The schema checked every field the sync and the package's calculation read; the rest passes through as sent.
  return { providers: parsed.data as unknown as Provider[] };
}

/** The data the installed package carries (1.6 MB of code, so loaded only when a sync runs). */
async function loadBundled(): Promise<{ providers: readonly Provider[]; source: 'bundled' }> {
  const { waitForUpdate } = await import('@pydantic/genai-prices');
  return { providers: (await waitForUpdate()) ?? [], source: 'bundled' };
}
