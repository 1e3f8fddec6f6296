import { z } from 'zod';
import { joinUrl } from '../shared/join-url.ts';
import type { VendorModelList } from '../vendor-model-list.ts';

const modelListSchema = z.object({
  object: z.literal('list'),
  data: z.array(z.object({ id: z.string().min(1), object: z.literal('model') })),
});

/**
 * `GET <root>/models` with the bearer key: every model at once (no paging) as `{"object": "list", "data": [{"id",
 * "object": "model", "created", "owned_by"}]}`; OpenAI-dialect vendors answer the same shape.
 * @see https://platform.openai.com/docs/api-reference/models/list
 */
export const openAiModelList: VendorModelList = {
  buildPageRequest: ({ baseUrl, credential }) => ({
    url: joinUrl(baseUrl, 'models'),
    headers: {
      accept: 'application/json',
      ...(credential === undefined ? {} : { authorization: `Bearer ${credential}` }),
    },
  }),
  parsePage: (body) => {
    const parsed = modelListSchema.safeParse(body);
    return parsed.success
      ? { modelIds: parsed.data.data.map((model) => model.id), nextPageToken: undefined }
      : undefined;
  },
};
