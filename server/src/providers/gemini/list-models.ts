import { z } from 'zod';
import { joinUrl } from '../shared/join-url.ts';
import type { VendorModelList } from '../vendor-model-list.ts';

const modelListSchema = z.object({
  models: z.array(z.object({ name: z.string().min(1) })).default([]),
  nextPageToken: z.string().optional(),
});

/**
 * `models.list`: `GET <root>/v1beta/models?pageSize=1000` with `x-goog-api-key`, paged by `pageToken` (the previous
 * page's `nextPageToken`). Names come as `models/<id>`; the id is what `generateContent` takes.
 * @see https://ai.google.dev/api/models#method:-models.list
 */
export const geminiModelList: VendorModelList = {
  buildPageRequest: ({ baseUrl, credential, pageToken }) => ({
    url: joinUrl(
      baseUrl,
      `v1beta/models?pageSize=1000${pageToken === undefined ? '' : `&pageToken=${encodeURIComponent(pageToken)}`}`,
    ),
    headers: { accept: 'application/json', ...(credential === undefined ? {} : { 'x-goog-api-key': credential }) },
  }),
  parsePage: (body) => {
    const parsed = modelListSchema.safeParse(body);
    if (!parsed.success) return undefined;
    const nextPageToken = parsed.data.nextPageToken === '' ? undefined : parsed.data.nextPageToken;
    return { modelIds: parsed.data.models.map((model) => model.name.replace(/^models\//, '')), nextPageToken };
  },
};
