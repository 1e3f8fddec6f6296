import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { getProviderAdapter } from '../../../providers/registry.ts';
import { joinUrl } from '../../../providers/shared/join-url.ts';
import { parseVendorBody } from '../../../providers/shared/parse-vendor-body.ts';
import { postJson } from '../../../providers/shared/post-json.ts';
import { readUpstreamBody } from '../../../providers/shared/read-upstream-body.ts';
import type { GeneratedImages, ImageCallInput } from '../../image-client.ts';
import type { ImageJob } from '../../image-job.ts';
import type { ImageDatum, ImageTokenUsage } from '../../image-request.ts';
import { openAiImagesResponseSchema } from './openai-images-api.ts';

const maxErrorBodyBytes = 64 * 1024;

/**
 * `POST {base}/images/generations` for OpenAI and the OpenAI-dialect vendors. GPT image models always answer base64
 * and refuse `response_format`, so it is sent only to models that hand out URLs. A refusal by OpenAI's safety system
 * is a 400 (`content_policy_violation`, `moderation_blocked`) and reaches the client as such.
 * @see https://platform.openai.com/docs/api-reference/images/create
 */
export async function generateOpenAiImages(input: ImageCallInput): Promise<GeneratedImages> {
  const headers: Record<string, string> = { 'content-type': 'application/json' };
  if (input.target.credential) headers['authorization'] = `Bearer ${input.target.credential}`;
  const response = await postJson({
    request: {
      url: joinUrl(input.target.baseUrl, 'images/generations'),
      headers,
      body: JSON.stringify(convertJob(input.job, input.target.upstreamModel)),
    },
    dispatcher: input.dispatcher,
    signal: input.signal,
    timeouts: input.timeouts,
  });
  if (response.status < 200 || response.status > 299) {
    const body = await readUpstreamBody(response.body, { maxBytes: maxErrorBodyBytes });
    const parseError = getProviderAdapter(input.provider).parseError;
    throw new UpstreamFailureError(parseError({ status: response.status, body, headers: response.headers }));
  }
  const answer = parseVendorBody(openAiImagesResponseSchema, await readUpstreamBody(response.body), 'OpenAI');
  const images = answer.data.map((datum) => toDatum(datum, input.job.responseFormat));
  const result: GeneratedImages = { images };
  if (answer.usage) result.usage = convertUsage(answer.usage);
  const details: NonNullable<GeneratedImages['details']> = {};
  if (answer.size) details.size = answer.size;
  if (answer.quality) details.quality = answer.quality;
  if (answer.output_format) details.output_format = answer.output_format;
  if (answer.background) details.background = answer.background;
  if (Object.keys(details).length > 0) result.details = details;
  return result;
}

function convertUsage(usage: {
  input_tokens: number;
  output_tokens: number;
  total_tokens: number;
  input_tokens_details?: { text_tokens?: number | undefined; image_tokens?: number | undefined } | undefined;
}): ImageTokenUsage {
  const converted: ImageTokenUsage = {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    total_tokens: usage.total_tokens,
  };
  const details = usage.input_tokens_details;
  if (details) {
    converted.input_tokens_details = {};
    if (details.text_tokens !== undefined) converted.input_tokens_details.text_tokens = details.text_tokens;
    if (details.image_tokens !== undefined) converted.input_tokens_details.image_tokens = details.image_tokens;
  }
  return converted;
}

function convertJob(job: ImageJob, upstreamModel: string): Record<string, unknown> {
  const body: Record<string, unknown> = { model: upstreamModel, prompt: job.prompt, n: job.count, size: job.size };
  if (job.profile.url !== 'none') body['response_format'] = job.responseFormat;
  if (job.quality !== undefined) body['quality'] = job.quality;
  if (job.outputFormat !== undefined && job.profile.outputFormats.length > 1) body['output_format'] = job.outputFormat;
  if (job.background !== undefined) body['background'] = job.background;
  if (job.style !== undefined) body['style'] = job.style;
  if (job.moderation !== undefined) body['moderation'] = job.moderation;
  if (job.outputCompression !== undefined) body['output_compression'] = job.outputCompression;
  if (job.user !== undefined) body['user'] = job.user;
  return body;
}

function toDatum(
  datum: {
    b64_json?: string | null | undefined;
    url?: string | null | undefined;
    revised_prompt?: string | null | undefined;
  },
  responseFormat: ImageJob['responseFormat'],
): ImageDatum {
  const revised = datum.revised_prompt ? { revised_prompt: datum.revised_prompt } : {};
  if (responseFormat === 'b64_json' && datum.b64_json) return { b64_json: datum.b64_json, ...revised };
  if (responseFormat === 'url' && datum.url) return { url: datum.url, ...revised };
  throw new UpstreamFailureError({
    kind: 'retryable',
    status: 502,
    message: `The upstream provider answered without the image ${responseFormat === 'url' ? 'URL' : 'data'}.`,
    vendorCode: 'missing_image',
  });
}
