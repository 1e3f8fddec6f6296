import { z } from 'zod';
import { joinUrl } from '../shared/join-url.ts';
import type { VendorModelList } from '../vendor-model-list.ts';

const modelListSchema = z.object({
  data: z.array(z.object({ id: z.string().min(1), type: z.literal('model') })),
  has_more: z.boolean(),
  last_id: z.string().nullable(),
});

/**
 * `GET <root>/v1/models?limit=1000` with `x-api-key` and `anthropic-version`, paged by `after_id` (the previous
 * page's `last_id`) while `has_more` is true.
 * @see https://docs.anthropic.com/en/api/models-list
 */
export const anthropicModelList: VendorModelList = {
  buildPageRequest: ({ baseUrl, credential, pageToken }) => ({
    url: joinUrl(
      baseUrl,
      `v1/models?limit=1000${pageToken === undefined ? '' : `&after_id=${encodeURIComponent(pageToken)}`}`,
    ),
    headers: {
      accept: 'application/json',
      'anthropic-version': '2023-06-01',
      ...(credential === undefined ? {} : { 'x-api-key': credential }),
    },
  }),
  parsePage: (body) => {
    const parsed = modelListSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const { data, has_more: hasMore, last_id: lastId } = parsed.data;
    return { modelIds: data.map((model) => model.id), nextPageToken: hasMore && lastId !== null ? lastId : undefined };
  },
};
