import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { getProviderAdapter } from '../../../providers/registry.ts';
import { joinUrl } from '../../../providers/shared/join-url.ts';
import { postJson } from '../../../providers/shared/post-json.ts';
import { readUpstreamBody } from '../../../providers/shared/read-upstream-body.ts';
import type { GeneratedImages, ImageCallInput } from '../../image-client.ts';
import type { ImageJob } from '../../image-job.ts';
import { parseOpenAiImagesAnswer } from './parse-openai-images-answer.ts';

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
  return parseOpenAiImagesAnswer(await readUpstreamBody(response.body), input.job.responseFormat);
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
