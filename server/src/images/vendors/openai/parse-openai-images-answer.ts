import { UpstreamFailureError } from '../../../providers/provider-adapter.ts';
import { parseVendorBody } from '../../../providers/shared/parse-vendor-body.ts';
import type { GeneratedImages } from '../../image-client.ts';
import type { ImageJob } from '../../image-job.ts';
import type { ImageDatum, ImageTokenUsage } from '../../image-request.ts';
import { openAiImagesResponseSchema, type OpenAiImagesResponse } from './openai-images-api.ts';

/**
 * An OpenAI `ImagesResponse` → the images in the asked form, the token usage of GPT image models, and what they
 * say they drew (`size`, `quality`: the charge follows them). A datum without the asked form is a broken answer.
 * @see https://platform.openai.com/docs/api-reference/images/object
 */
export function parseOpenAiImagesAnswer(body: unknown, responseFormat: ImageJob['responseFormat']): GeneratedImages {
  const answer = parseVendorBody(openAiImagesResponseSchema, body, 'OpenAI');
  const result: GeneratedImages = { images: answer.data.map((datum) => toDatum(datum, responseFormat)) };
  if (answer.usage) result.usage = convertUsage(answer.usage);
  const details: NonNullable<GeneratedImages['details']> = {};
  if (answer.size) details.size = answer.size;
  if (answer.quality) details.quality = answer.quality;
  if (answer.output_format) details.output_format = answer.output_format;
  if (answer.background) details.background = answer.background;
  if (Object.keys(details).length > 0) result.details = details;
  return result;
}

function convertUsage(usage: NonNullable<OpenAiImagesResponse['usage']>): ImageTokenUsage {
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

function toDatum(datum: OpenAiImagesResponse['data'][number], responseFormat: ImageJob['responseFormat']): ImageDatum {
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
