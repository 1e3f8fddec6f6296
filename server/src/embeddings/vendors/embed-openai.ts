import { z } from 'zod';
import { UpstreamFailureError } from '../../providers/provider-adapter.ts';
import { getProviderAdapter } from '../../providers/registry.ts';
import { joinUrl } from '../../providers/shared/join-url.ts';
import { postJsonWhole } from '../../providers/shared/post-json.ts';
import { readUpstreamBody } from '../../providers/shared/read-upstream-body.ts';
import type { EmbeddingCallInput, Embedded } from '../embedding-client.ts';
import { refuseMalformedAnswer } from './refuse-malformed-answer.ts';

const maxErrorBodyBytes = 64 * 1024;

const answerSchema = z.object({
  data: z.array(z.object({ index: z.number().int().min(0), embedding: z.array(z.number()) })),
  usage: z.object({ prompt_tokens: z.number().int().min(0) }).optional(),
});

/**
 * `POST {base}/embeddings` for OpenAI and the OpenAI-dialect vendors (Mistral, Together): every input in one call,
 * token-id inputs as they are, vectors asked for as floats (the gateway encodes base64 itself), `dimensions` passed on
 * (a model without it refuses it with a 400).
 * @see https://platform.openai.com/docs/api-reference/embeddings/create
 * @see https://docs.mistral.ai/api/#tag/embeddings
 */
export async function embedOpenAi(input: EmbeddingCallInput): Promise<Embedded> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (input.target.credential) headers['authorization'] = `Bearer ${input.target.credential}`;
  const body: Record<string, unknown> = {
    model: input.target.upstreamModel,
    input: input.inputs.map((item) => (item.kind === 'text' ? item.text : item.tokens)),
    encoding_format: 'float',
  };
  if (input.dimensions !== undefined) body['dimensions'] = input.dimensions;
  const response = await postJsonWhole({
    request: { url: joinUrl(input.target.baseUrl, 'embeddings'), headers, body: JSON.stringify(body) },
    dispatcher: input.dispatcher,
    signal: input.signal,
    timeouts: input.timeouts,
  });
  if (response.status < 200 || response.status > 299) {
    const errorBody = await readUpstreamBody(response.body, { maxBytes: maxErrorBodyBytes });
    const parseError = getProviderAdapter(input.provider).parseError;
    throw new UpstreamFailureError(parseError({ status: response.status, body: errorBody, headers: response.headers }));
  }
  const answer = answerSchema.safeParse(await readUpstreamBody(response.body));
  if (!answer.success || answer.data.data.length !== input.inputs.length) return refuseMalformedAnswer();
  const vectors = [...answer.data.data].sort((left, right) => left.index - right.index).map((item) => item.embedding);
  return { vectors, inputTokens: answer.data.usage?.prompt_tokens };
}
