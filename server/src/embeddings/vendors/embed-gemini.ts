import { z } from 'zod';
import { InvalidRequestError } from '../../errors/invalid-request-error.ts';
import { parseGeminiError } from '../../providers/gemini/errors.ts';
import { UpstreamFailureError } from '../../providers/provider-adapter.ts';
import { joinUrl } from '../../providers/shared/join-url.ts';
import { postJsonWhole } from '../../providers/shared/post-json.ts';
import { readUpstreamBody } from '../../providers/shared/read-upstream-body.ts';
import type { EmbeddingCallInput, Embedded } from '../embedding-client.ts';
import { refuseMalformedAnswer } from './refuse-malformed-answer.ts';

const maxErrorBodyBytes = 64 * 1024;

const answerSchema = z.object({ embeddings: z.array(z.object({ values: z.array(z.number()) })) });

/**
 * Gemini's `:batchEmbedContents`: one request per input, `outputDimensionality` for `dimensions`. Gemini embeds text
 * only (token ids → 400) and reports no token count, so the gateway bills its own estimate (docs/api.md).
 * @see https://ai.google.dev/api/embeddings#method:-models.batchembedcontents
 */
export async function embedGemini(input: EmbeddingCallInput): Promise<Embedded> {
  const model = `models/${input.target.upstreamModel}`;
  const requests = input.inputs.map((item, index) => {
    if (item.kind !== 'text') {
      throw new InvalidRequestError('Gemini embedding models take text only, not token ids.', {
        param: `input[${index}]`,
        code: 'unsupported_value',
      });
    }
    return {
      model,
      content: { parts: [{ text: item.text }] },
      ...(input.dimensions === undefined ? {} : { outputDimensionality: input.dimensions }),
    };
  });
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (input.target.credential) headers['x-goog-api-key'] = input.target.credential;
  const path = `v1beta/models/${encodeURIComponent(input.target.upstreamModel)}:batchEmbedContents`;
  const response = await postJsonWhole({
    request: { url: joinUrl(input.target.baseUrl, path), headers, body: JSON.stringify({ requests }) },
    dispatcher: input.dispatcher,
    signal: input.signal,
    timeouts: input.timeouts,
  });
  if (response.status < 200 || response.status > 299) {
    const body = await readUpstreamBody(response.body, { maxBytes: maxErrorBodyBytes });
    throw new UpstreamFailureError(parseGeminiError({ status: response.status, body, headers: response.headers }));
  }
  const answer = answerSchema.safeParse(await readUpstreamBody(response.body));
  if (!answer.success || answer.data.embeddings.length !== input.inputs.length) return refuseMalformedAnswer();
  return { vectors: answer.data.embeddings.map((embedding) => embedding.values), inputTokens: undefined };
}
