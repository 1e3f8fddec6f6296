import { z } from 'zod';

/**
 * Black Forest Labs' asynchronous API: a submit answers a task id and the URL to poll; the poll answers a status,
 * and `result.sample` (a signed delivery URL, valid about 10 minutes) once the status is `Ready`.
 * @see https://docs.bfl.ai/quick_start/generating_images
 */
export const bflSubmitResponseSchema = z.looseObject({ id: z.string().min(1), polling_url: z.string().optional() });

export const bflResultSchema = z.looseObject({
  id: z.string().optional(),
  status: z.string(),
  result: z.looseObject({ sample: z.string().optional() }).nullish(),
  details: z.unknown().optional(),
});
export type BflResult = z.infer<typeof bflResultSchema>;

/** FastAPI's error body: a message, or pydantic's list of field problems (422). */
export const bflErrorSchema = z.looseObject({
  detail: z.union([
    z.string(),
    z.array(z.looseObject({ loc: z.array(z.union([z.string(), z.number()])).optional(), msg: z.string().optional() })),
  ]),
});
